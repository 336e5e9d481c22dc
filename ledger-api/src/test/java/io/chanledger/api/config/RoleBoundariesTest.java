package io.chanledger.api.config;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The boundaries in the code. The roles' (docs/operations.md, "Roles"): a marketplace package
 * imports no provider code and a provider package no marketplace code; shared code (every package
 * without a {@link RolePackage}, the other modules too) imports neither, since every role runs it.
 * The layers': settings and role switches ({@code config}) below the HTTP plumbing ({@code http}),
 * below the event store ({@code eventstore}, {@code embeddedstore}), below the shared ledger API
 * ({@code ledger}), below the two roles; a package imports only from its own layer or those below.
 * And no two packages import each other, however indirectly. {@code BoundaryRulesTest} shows that
 * each rule fails on a class that breaks it.
 */
class RoleBoundariesTest {

    /** The main code of every module: the other modules' test jars, on this one's test path, left out. */
    static final ImportOption MAIN_CODE = location -> ImportOption.Predefined.DO_NOT_INCLUDE_TESTS.includes(location)
            && !location.contains("-tests.jar");

    private static final JavaClasses SERVICE = new ClassFileImporter()
            .withImportOption(MAIN_CODE)
            .importPackages("io.chanledger");

    static final ArchRule NO_IMPORT_ACROSS_ROLES = classes().should(importOnlyTheirOwnRolesCodeOrSharedCode());

    static final ArchRule NO_UPWARD_IMPORT = layeredArchitecture().consideringOnlyDependenciesInLayers()
            .layer("config").definedBy("io.chanledger.api.config..")
            .layer("http").definedBy("io.chanledger.api.http..")
            .layer("event store").definedBy("io.chanledger.api.eventstore..", "io.chanledger.api.embeddedstore..")
            .layer("ledger").definedBy("io.chanledger.api.ledger..")
            .layer("roles").definedBy("io.chanledger.api.provider..", "io.chanledger.api.marketplace..")
            .whereLayer("roles").mayNotBeAccessedByAnyLayer()
            .whereLayer("ledger").mayOnlyBeAccessedByLayers("roles")
            .whereLayer("event store").mayOnlyBeAccessedByLayers("ledger", "roles")
            .whereLayer("http").mayOnlyBeAccessedByLayers("event store", "ledger", "roles");

    /** Each package is a slice of its own. */
    static final ArchRule NO_PACKAGE_CYCLE = slices().matching("io.chanledger.(**)").should().beFreeOfCycles();

    @Test
    void noPackageImportsFromALayerAboveItsOwn() {
        NO_UPWARD_IMPORT.check(SERVICE);
    }

    @Test
    void noTwoPackagesImportEachOther() {
        NO_PACKAGE_CYCLE.check(SERVICE);
    }

    @Test
    void eachPartyDeclaresItsRoleOnceForEveryPackageUnderIt() {
        Map<String, Role> declaring = new TreeMap<>();
        Map<String, Optional<Role>> packages = new TreeMap<>();
        for (JavaClass type : SERVICE) {
            String name = type.getPackageName();
            packages.put(name, RoleComponentFilter.roleOf(name));
        }
        for (String name : packages.keySet()) {
            try {
                RolePackage declared = Class.forName(name + ".package-info").getAnnotation(RolePackage.class);
                if (declared != null) {
                    declaring.put(name, declared.value());
                }
            } catch (ClassNotFoundException noPackageInfo) {
                // declares nothing
            }
        }
        assertThat(declaring).isEqualTo(Map.of(
                "io.chanledger.api.provider", Role.PROVIDER,
                "io.chanledger.api.marketplace", Role.MARKETPLACE));
        packages.forEach((name, role) -> assertThat(role).as(name).isEqualTo(
                within(name, "io.chanledger.api.provider") ? Optional.of(Role.PROVIDER)
                        : within(name, "io.chanledger.api.marketplace") ? Optional.of(Role.MARKETPLACE)
                        : Optional.empty()));
    }

    private static boolean within(String packageName, String parent) {
        return packageName.equals(parent) || packageName.startsWith(parent + ".");
    }

    @Test
    void noCodeImportsTheCodeOfARoleItDoesNotBelongTo() {
        NO_IMPORT_ACROSS_ROLES.check(SERVICE);
    }

    private static ArchCondition<JavaClass> importOnlyTheirOwnRolesCodeOrSharedCode() {
        return new ArchCondition<>("use only shared code and the code of their own role") {
            @Override
            public void check(JavaClass type, ConditionEvents events) {
                Optional<Role> own = RoleComponentFilter.roleOf(type.getPackageName());
                Set<String> crossings = new TreeSet<>();
                for (Dependency dependency : type.getDirectDependenciesFromSelf()) {
                    JavaClass target = dependency.getTargetClass();
                    Optional<Role> theirs = RoleComponentFilter.roleOf(target.getPackageName());
                    if (theirs.isPresent() && !theirs.equals(own)) {
                        crossings.add(target.getName());
                    }
                }
                if (!crossings.isEmpty()) {
                    events.add(SimpleConditionEvent.violated(type, type.getName() + " ("
                            + own.map(Role::settingValue).orElse("shared") + ") uses " + crossings));
                }
            }
        };
    }
}
