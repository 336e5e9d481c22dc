package io.chanledger.domain.money;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.math.BigInteger;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class Uint256Test {

    private static final String MAX = "115792089237316195423570985008687907853269984665640564039457584007913129639935";

    @Test
    void writesEveryValueAsBigIntegerDoes() {
        Random random = new Random(20261128L);
        for (int i = 0; i < 100_000; i++) {
            // every length from 0 to 300 bits, both signs: the long fast path and the general one
            BigInteger value = new BigInteger(random.nextInt(301), random);
            BigInteger signed = random.nextBoolean() ? value : value.negate();
            assertThat(Uint256.decimal(signed)).isEqualTo(signed.toString());
        }
        BigInteger longMin = BigInteger.valueOf(Long.MIN_VALUE);
        BigInteger longMax = BigInteger.valueOf(Long.MAX_VALUE);
        for (BigInteger edge : new BigInteger[] {BigInteger.ZERO, BigInteger.ONE, longMax, longMax.add(BigInteger.ONE),
                longMin, longMin.subtract(BigInteger.ONE), BigInteger.ONE.shiftLeft(64), Uint256.MAX}) {
            assertThat(Uint256.decimal(edge)).isEqualTo(edge.toString());
        }
    }

    @Test
    void parsesPlainDigitsAndLeadingZeros() {
        assertThat(Uint256.parseDecimal("0")).isEqualTo(BigInteger.ZERO);
        assertThat(Uint256.parseDecimal("250000")).isEqualTo(BigInteger.valueOf(250_000));
        assertThat(Uint256.parseDecimal("000042")).isEqualTo(BigInteger.valueOf(42));
    }

    @Test
    void acceptsExactlyMax() {
        assertThat(MAX).hasSize(78);
        assertThat(Uint256.parseDecimal(MAX)).isEqualTo(Uint256.MAX).isEqualTo(BigInteger.TWO.pow(256).subtract(BigInteger.ONE));
    }

    @Test
    void rejectsMaxPlusOne() {
        String maxPlusOne = BigInteger.TWO.pow(256).toString();
        assertThatThrownBy(() -> Uint256.parseDecimal(maxPlusOne))
                .isInstanceOf(InvalidUint256Exception.class).hasMessageContaining("exceeds 2^256-1");
    }

    @ParameterizedTest(name = "\"{0}\"")
    @ValueSource(strings = {"-1", "+1", " 1", "1 ", "1e6", "0x10", "1.0", "1_000", "1,000", "\u0661", "\uff11"})
    void rejectsAnythingButDigits(String text) {
        assertThatThrownBy(() -> Uint256.parseDecimal(text))
                .isInstanceOf(InvalidUint256Exception.class).hasMessageContaining("only the digits 0-9");
    }

    @Test
    void rejectsEmptyAndMissing() {
        assertThatThrownBy(() -> Uint256.parseDecimal("")).isInstanceOf(InvalidUint256Exception.class)
                .hasMessageContaining("empty");
        assertThatThrownBy(() -> Uint256.parseDecimal(null)).isInstanceOf(InvalidUint256Exception.class)
                .hasMessageContaining("missing");
    }

    @Test
    void rejects79DigitsEvenWithLeadingZeros() {
        assertThatThrownBy(() -> Uint256.parseDecimal("0" + MAX))
                .isInstanceOf(InvalidUint256Exception.class).hasMessageContaining("79 characters");
        assertThatThrownBy(() -> Uint256.parseDecimal("1".repeat(79))).isInstanceOf(InvalidUint256Exception.class);
    }

    @Test
    void rejectsA300DigitNumber() {
        assertThatThrownBy(() -> Uint256.parseDecimal("9".repeat(300)))
                .isInstanceOf(InvalidUint256Exception.class).hasMessageContaining("300 characters");
    }

    /** The length is checked before BigInteger ever sees the text, and the message does not echo it. */
    @Test
    void rejectsAMillionCharactersWithoutEchoingThem() {
        String huge = "7".repeat(1_000_000);
        Throwable thrown = catchThrowable(() -> Uint256.parseDecimal(huge));
        assertThat(thrown).isInstanceOf(InvalidUint256Exception.class).hasMessageContaining("1000000 characters");
        assertThat(thrown.getMessage()).hasSizeLessThan(200);
    }

    @Test
    void isAnIllegalArgumentSoCallersCanTreatItAsBadInput() {
        assertThat(new InvalidUint256Exception("x")).isInstanceOf(IllegalArgumentException.class);
    }
}
