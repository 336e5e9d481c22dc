package io.chanledger.api.marketplace.directory;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The networks unverified reports are counted by: one per IPv4 /24 and IPv6 /48, never a name lookup. */
class SourceNetworkTest {

    @ParameterizedTest(name = "{0} → {1}")
    @CsvSource(delimiter = '|', value = {
            "203.0.113.7|203.0.113.0/24",
            "203.0.113.250|203.0.113.0/24",
            "010.001.002.003|10.1.2.0/24",
            "2001:db8:7:1::1|2001:db8:7::/48",
            "2001:0db8:0007:ffff:1:2:3:4|2001:db8:7::/48",
            "[2001:db8:7::9]|2001:db8:7::/48",
            "fe80::1%eth0|fe80:0:0::/48",
            "::ffff:198.51.100.4|198.51.100.0/24",
            "203.0.113.256|203.0.113.256",
            "client-6a3b|client-6a3b",
            "cafe.example|cafe.example",
            "abc:xyz|abc:xyz"})
    void anAddressCountsAsItsNetwork(String address, String network) {
        assertThat(SourceNetwork.of(address)).isEqualTo(network);
    }

    @org.junit.jupiter.api.Test
    void anythingElseIsCutToSixtyFourCharacters() {
        assertThat(SourceNetwork.of("x".repeat(500))).hasSize(SourceNetwork.MAX_OTHER);
    }
}
