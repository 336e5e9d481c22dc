package io.chanledger.domain.eip712;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class HexTest {

    private static final String CHECKSUMMED = "0x5315f457a01C71a5d7eE87DA126aF57E8CdedA47";

    @Test
    void roundTripsBytes() {
        byte[] bytes = {0x00, (byte) 0xab, 0x7f, (byte) 0xff};
        assertThat(Hex.encode(bytes)).isEqualTo("0x00ab7fff");
        assertThat(Hex.decode("0x00AB7fFF")).isEqualTo(bytes);
        assertThat(Hex.decode("0x")).isEmpty();
    }

    @ParameterizedTest(name = "\"{0}\"")
    @ValueSource(strings = {"", "00ab", "0X00", "0x0", "0x0g", " 0x00", "0x00 ", "0x-1", "0x\u0663\u0663", "0x\uff10\uff10"})
    void refusesAnythingButStrictHex(String text) {
        assertThatThrownBy(() -> Hex.decode(text)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void refusesNullAndWrongFixedLengths() {
        assertThatThrownBy(() -> Hex.decode(null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Hex.decode("0x00", 32)).isInstanceOf(IllegalArgumentException.class);
        assertThat(Hex.decode("0x" + "00".repeat(32), 32)).hasSize(32);
    }

    @Test
    void recognisesAddressesAndBytes32() {
        assertThat(Hex.isAddress(CHECKSUMMED)).isTrue();
        assertThat(Hex.isAddress(CHECKSUMMED.substring(0, 41))).isFalse();
        assertThat(Hex.isAddress(CHECKSUMMED.substring(2))).isFalse();
        assertThat(Hex.isAddress(null)).isFalse();
        assertThat(Hex.isBytes32("0x" + "ab".repeat(32))).isTrue();
        assertThat(Hex.isBytes32("0x" + "ab".repeat(31) + "ag")).isFalse();
    }

    @Test
    void checksumsAsEip55() {
        assertThat(Hex.toChecksumAddress(CHECKSUMMED.toLowerCase())).isEqualTo(CHECKSUMMED);
        assertThat(Hex.toChecksumAddress(CHECKSUMMED.toUpperCase().replace("0X", "0x"))).isEqualTo(CHECKSUMMED);
        assertThat(Hex.isValidChecksum(CHECKSUMMED)).isTrue();
        assertThat(Hex.isValidChecksum(CHECKSUMMED.replace('C', 'c'))).isFalse();
    }

    @Test
    void normalizesToLowercaseButRefusesABrokenChecksum() {
        assertThat(Hex.normalizeAddress(CHECKSUMMED)).isEqualTo(CHECKSUMMED.toLowerCase());
        assertThat(Hex.normalizeAddress(CHECKSUMMED.toLowerCase())).isEqualTo(CHECKSUMMED.toLowerCase());
        assertThatThrownBy(() -> Hex.normalizeAddress(CHECKSUMMED.replace('C', 'c')))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("checksum");
    }
}
