package io.chanledger.api.config;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import io.chanledger.api.http.boundaryfixture.ImportsTheLedger;
import io.chanledger.api.ledger.boundaryfixture.first.First;
import io.chanledger.api.ledger.boundaryfixture.second.Second;
import io.chanledger.api.provider.boundaryfixture.UsesTheMarketplace;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The rules of {@link RoleBoundariesTest} catch what they are there for: evaluated on the service's
 * classes together with the test classes of the {@code boundaryfixture} packages, each made to
 * break one rule, every rule reports its own fixture and nothing else (on the service's classes
 * alone, {@link RoleBoundariesTest} finds nothing).
 */
class BoundaryRulesTest {

    private static final String FIXTURES = "boundaryfixture";

    private static final JavaClasses SERVICE_AND_FIXTURES = new ClassFileImporter()
            .withImportOption(location -> RoleBoundariesTest.MAIN_CODE.includes(location)
                    || location.contains(FIXTURES))
            .importPackages("io.chanledger");

    @Test
    void theFixturesAreImported() {
        assertThat(SERVICE_AND_FIXTURES.contain(UsesTheMarketplace.class)).isTrue();
        assertThat(SERVICE_AND_FIXTURES.contain(ImportsTheLedger.class)).isTrue();
        assertThat(SERVICE_AND_FIXTURES.contain(First.class)).isTrue();
        assertThat(SERVICE_AND_FIXTURES.contain(Second.class)).isTrue();
    }

    @Test
    void aProviderClassUsingTheMarketplaceIsReported() {
        List<String> violations = violations(RoleBoundariesTest.NO_IMPORT_ACROSS_ROLES);
        assertThat(violations).singleElement().asString().contains(UsesTheMarketplace.class.getName(), "MarketplaceProperties");
    }

    @Test
    void anHttpClassUsingTheLedgerIsReported() {
        List<String> violations = violations(RoleBoundariesTest.NO_UPWARD_IMPORT);
        assertThat(violations).isNotEmpty()
                .allSatisfy(violation -> assertThat(violation).contains(ImportsTheLedger.class.getName(), "ChannelHistory"));
    }

    @Test
    void twoPackagesUsingEachOtherAreReported() {
        List<String> violations = violations(RoleBoundariesTest.NO_PACKAGE_CYCLE);
        assertThat(violations).isNotEmpty()
                .allSatisfy(violation -> assertThat(violation).contains(First.class.getName(), Second.class.getName()));
    }

    private static List<String> violations(ArchRule rule) {
        EvaluationResult result = rule.evaluate(SERVICE_AND_FIXTURES);
        return result.getFailureReport().getDetails();
    }
}
