package io.chanledger.domain.contract;

import io.chanledger.domain.chain.ChainRef;
import java.math.BigInteger;
import org.axonframework.test.aggregate.AggregateTestFixture;
import org.axonframework.test.aggregate.FixtureConfiguration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ContractSettingsAggregateTest {

    private static final String CONTRACT = "137:0x5fbdb2315678afecb367f032d93f642f64180aa3";
    private static final String RECIPIENT = "0x" + "aa".repeat(20);
    private static final String OLD_TOKEN = "0x" + "e7".repeat(20);
    private static final String NEW_TOKEN = "0x" + "9f".repeat(20);
    private static final ChainRef DEPLOYED = new ChainRef(1, "0xb1", "0xt1", 0);
    private static final ChainRef LATER = new ChainRef(40, "0xb40", "0xt40", 2);

    private FixtureConfiguration<ContractSettingsAggregate> fixture;

    @BeforeEach
    void setUp() {
        fixture = new AggregateTestFixture<>(ContractSettingsAggregate.class);
    }

    @Test
    void theFirstFeeChangeStartsTheContractsRecord() {
        fixture.givenNoPriorActivity()
                .when(new RecordFeeUpdate(CONTRACT, RECIPIENT, BigInteger.valueOf(200), DEPLOYED))
                .expectEvents(new FeeUpdated(CONTRACT, RECIPIENT, BigInteger.valueOf(200), DEPLOYED));
    }

    @Test
    void recordsAFeeChangeLoggedAfterTheLastOne() {
        fixture.given(new FeeUpdated(CONTRACT, RECIPIENT, BigInteger.valueOf(200), DEPLOYED))
                .when(new RecordFeeUpdate(CONTRACT, RECIPIENT, BigInteger.valueOf(500), LATER))
                .expectEvents(new FeeUpdated(CONTRACT, RECIPIENT, BigInteger.valueOf(500), LATER));
    }

    @Test
    void aLogReadAgainRecordsNothing() {
        fixture.given(new FeeUpdated(CONTRACT, RECIPIENT, BigInteger.valueOf(200), DEPLOYED),
                        new UsdcUpdated(CONTRACT, OLD_TOKEN, NEW_TOKEN, LATER))
                .when(new RecordFeeUpdate(CONTRACT, RECIPIENT, BigInteger.valueOf(200), DEPLOYED))
                .expectNoEvents();
    }

    @Test
    void recordsATokenChange() {
        fixture.given(new FeeUpdated(CONTRACT, RECIPIENT, BigInteger.valueOf(200), DEPLOYED))
                .when(new RecordUsdcUpdate(CONTRACT, OLD_TOKEN, NEW_TOKEN, LATER))
                .expectEvents(new UsdcUpdated(CONTRACT, OLD_TOKEN, NEW_TOKEN, LATER));
    }

    @Test
    void refusesATokenThatIsNotALowercaseAddress() {
        fixture.givenNoPriorActivity()
                .when(new RecordUsdcUpdate(CONTRACT, OLD_TOKEN, "0x9F" + "9f".repeat(19), LATER))
                .expectException(IllegalArgumentException.class)
                .expectNoEvents();
    }
}
