package io.chanledger.domain.contract;

import static org.assertj.core.api.Assertions.assertThat;

import io.chanledger.domain.chain.ChainRef;
import java.math.BigInteger;
import java.util.List;
import org.junit.jupiter.api.Test;

class ContractSettingsTest {

    private static final String CONTRACT = ContractSettings.idOf(137, "0x5FbDB2315678afecb367f032d93F642f64180aa3");
    private static final String RECIPIENT = "0x" + "aa".repeat(20);
    private static final String OLD_TOKEN = "0x" + "e7".repeat(20);
    private static final String NEW_TOKEN = "0x" + "9f".repeat(20);

    private static ChainRef log(long block, int index) {
        return new ChainRef(block, "0xb" + block, "0xt" + block + "-" + index, index);
    }

    private static FeeUpdated fee(long bps, ChainRef at) {
        return new FeeUpdated(CONTRACT, RECIPIENT, BigInteger.valueOf(bps), at);
    }

    private static BigInteger n(long value) {
        return BigInteger.valueOf(value);
    }

    @Test
    void theIdNamesChainAndLowercaseAddress() {
        assertThat(CONTRACT).isEqualTo("137:0x5fbdb2315678afecb367f032d93f642f64180aa3");
    }

    @Test
    void beforeTheFirstRecordedChangeTheStartingValuesAreInForce() {
        ContractSettings settings = ContractSettings.starting(n(200), OLD_TOKEN.toUpperCase().replace("0X", "0x"));

        assertThat(settings.feeBpsAt(log(5, 0))).isEqualTo(n(200));
        assertThat(settings.feeBps()).isEqualTo(n(200));
        assertThat(settings.usdc()).isEqualTo(OLD_TOKEN);
    }

    @Test
    void theFeeInForceAtALogIsThatOfTheLastChangeLoggedBeforeIt() {
        ContractSettings settings = ContractSettings.replay(n(0), OLD_TOKEN,
                List.of(fee(200, log(10, 3)), fee(500, log(20, 1))));

        assertThat(settings.feeBpsAt(log(9, 7))).as("before any change").isEqualTo(n(0));
        assertThat(settings.feeBpsAt(log(10, 2))).as("earlier in the block of the change").isEqualTo(n(0));
        assertThat(settings.feeBpsAt(log(10, 3))).as("the change's own position").isEqualTo(n(0));
        assertThat(settings.feeBpsAt(log(10, 4))).as("later in the same block").isEqualTo(n(200));
        assertThat(settings.feeBpsAt(log(19, 0))).isEqualTo(n(200));
        assertThat(settings.feeBpsAt(log(20, 2))).isEqualTo(n(500));
        assertThat(settings.feeBps()).as("for a claim not made yet").isEqualTo(n(500));
    }

    @Test
    void aChangeAtOrBeforeTheLastOneOfItsKindAddsNothing() {
        ContractSettings settings = ContractSettings.replay(n(200), OLD_TOKEN,
                List.of(fee(300, log(10, 0)), fee(300, log(10, 0)), fee(100, log(9, 0))));

        assertThat(settings.feeUpdates()).containsExactly(fee(300, log(10, 0)));
    }

    @Test
    void theTokenInForceIsTheLastRecorded() {
        ContractSettings settings = ContractSettings.replay(n(200), OLD_TOKEN,
                List.of(new UsdcUpdated(CONTRACT, OLD_TOKEN, NEW_TOKEN, log(30, 0)), "not a settings event"));

        assertThat(settings.usdc()).isEqualTo(NEW_TOKEN);
        assertThat(settings.feeBps()).isEqualTo(n(200));
    }

    @Test
    void theFeeIsRoundedDownAndTheNetIsWhatIsLeft() {
        assertThat(ContractSettings.feeOn(n(999), n(200))).isEqualTo(n(19));
        assertThat(ContractSettings.feeOn(n(1_000_000), n(0))).isEqualTo(n(0));
        assertThat(ContractSettings.replay(n(200), null, List.of(fee(500, log(1, 0)))).netOf(n(1_000_000)))
                .isEqualTo(n(950_000));
    }
}
