package io.chanledger.api.marketplace.gasstation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FaucetKeysTest {

    private static final String KEY = "0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6";
    private static final String ADDRESS = "0xa0ee7a142d267c1f36714e4a8f75612f20a79720";

    private static GasStationProperties withKey(String key, String file) {
        return new GasStationProperties(key, file, BigInteger.TEN.pow(17), BigInteger.valueOf(5_000_000), 21_000,
                Duration.ofSeconds(60), Duration.ofSeconds(1), Duration.ofMinutes(3), Duration.ofSeconds(30), 5_000, Duration.ofSeconds(30), Duration.ofSeconds(15),
                null, new GasStationProperties.RateLimit(5, Duration.ofMinutes(1), 100),
                new GasStationProperties.Grants(10, Duration.ofMinutes(5)));
    }

    @Test
    void noKeyMeansNoFaucet() {
        assertThat(FaucetKeys.load(withKey(null, null))).isEmpty();
        assertThat(FaucetKeys.load(withKey(" ", ""))).isEmpty();
    }

    @Test
    void theKeyComesFromTheSettingWithOrWithoutPrefix() {
        assertThat(FaucetKeys.load(withKey(KEY, null)).orElseThrow().getAddress()).isEqualTo(ADDRESS);
        assertThat(FaucetKeys.load(withKey(KEY.substring(2), null)).orElseThrow().getAddress()).isEqualTo(ADDRESS);
    }

    @Test
    void theKeyComesFromAFile(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("faucet.key"), KEY + "\n");

        assertThat(FaucetKeys.load(withKey(null, file.toString())).orElseThrow().getAddress()).isEqualTo(ADDRESS);
    }

    @Test
    void aMalformedKeyIsRefusedWithoutRepeatingIt() {
        String almost = KEY.substring(0, KEY.length() - 1) + "z";

        assertThatThrownBy(() -> FaucetKeys.load(withKey(almost, null)))
                .hasMessageContaining("chan.gas-station.faucet-key")
                .hasMessageNotContaining(almost.substring(2, 20));
    }

    @Test
    void theSettingsNeverPrintTheKey() {
        assertThat(withKey(KEY, null).toString()).doesNotContain(KEY.substring(2, 20)).contains("***");
    }
}
