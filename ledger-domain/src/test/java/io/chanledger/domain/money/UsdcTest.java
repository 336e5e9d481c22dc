package io.chanledger.domain.money;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class UsdcTest {

    @ParameterizedTest(name = "\"{0}\" = {1} base units")
    @CsvSource({
            "0.00375, 3750",
            "0.015, 15000",
            "5, 5000000",
            "5.0, 5000000",
            "0, 0",
            "0.000001, 1",
            "1.5, 1500000",
            "007.25, 7250000",
            "123456789.123456, 123456789123456"
    })
    void parsesDecimalUsdcToBaseUnits(String text, long units) {
        assertThat(Usdc.parseDecimalUsdc(text)).isEqualTo(BigInteger.valueOf(units));
    }

    @ParameterizedTest(name = "{0} base units = \"{1}\"")
    @CsvSource({
            "3750, 0.00375",
            "5000000, 5",
            "0, 0",
            "1, 0.000001",
            "1500000, 1.5",
            "10000000, 10",
            "123456789123456, 123456789.123456"
    })
    void formatsBaseUnitsWithoutTrailingZeros(long units, String text) {
        assertThat(Usdc.formatDecimalUsdc(BigInteger.valueOf(units))).isEqualTo(text);
        assertThat(Usdc.parseDecimalUsdc(text)).isEqualTo(BigInteger.valueOf(units));
    }

    @Test
    void formatsUint256MaxAsPlainDecimal() {
        String text = Usdc.formatDecimalUsdc(Uint256.MAX);
        assertThat(text).doesNotContain("E").contains(".");
        assertThat(Usdc.parseDecimalUsdc(text)).isEqualTo(Uint256.MAX);
    }

    @Test
    void rejectsMoreThanSixFractionDigits() {
        assertThatThrownBy(() -> Usdc.parseDecimalUsdc("0.0000001"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("7 fraction digits");
    }

    @ParameterizedTest(name = "\"{0}\"")
    @ValueSource(strings = {"", "-1", "+1", " 1", "1 ", "1e6", "0x10", ".5", "5.", "1.2.3", "1,5", "\u0661", "NaN"})
    void rejectsAnythingButPlainDecimals(String text) {
        assertThatThrownBy(() -> Usdc.parseDecimalUsdc(text)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void rejectsAmountsBeyondUint256AndHugeInputQuickly() {
        assertThatThrownBy(() -> Usdc.parseDecimalUsdc("9".repeat(78)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("uint256");
        assertThatThrownBy(() -> Usdc.parseDecimalUsdc("1".repeat(1_000_000)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1000000 characters");
    }

    @Test
    void refusesToFormatNegativeOrMissingAmounts() {
        assertThatThrownBy(() -> Usdc.formatDecimalUsdc(BigInteger.ONE.negate())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Usdc.formatDecimalUsdc(null)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void wholeUsdcHasSixDecimals() {
        assertThat(Usdc.ofWhole(5)).isEqualTo(BigInteger.valueOf(5_000_000));
        assertThat(Usdc.DECIMALS).isEqualTo(6);
    }
}
