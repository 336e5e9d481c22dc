package io.chanledger.domain.eip712;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The edges of the contract's rule beyond the shared vectors. */
class ContractSignatureRuleTest {

    static final BigInteger N =
            new BigInteger("fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141", 16);
    static final BigInteger P =
            new BigInteger("fffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2f", 16);
    static final BigInteger HALF_N = N.shiftRight(1);

    private static final byte[] DIGEST = Hex.decode("0x59dd9fd8d3739dbe82acd1e850e1f08ebcf76ca9a076a8ce3eacacc4a56a5993");
    private static final BigInteger R = new BigInteger("43162b15f0686c4ab6e7e1f685307b3aa1f960c1daf560fa60dff7738e848eeb", 16);
    private static final BigInteger S = new BigInteger("106b852bd2870cb4ee7f595915b2b0ba28831546fef1d94a0dbc648177374a94", 16);
    private static final String CONSUMER = "0x5315f457a01c71a5d7ee87da126af57e8cdeda47";

    @Test
    void acceptsTheUnmodifiedSignature() {
        assertThat(verdict(R, S, 27)).isEqualTo(new SignatureVerdict.Recovered(CONSUMER));
    }

    @Test
    void rejectsZeroR() {
        assertThat(verdict(BigInteger.ZERO, S, 27)).isEqualTo(rejected(SignatureRejection.INVALID_SIGNATURE));
    }

    @Test
    void rejectsZeroS() {
        assertThat(verdict(R, BigInteger.ZERO, 27)).isEqualTo(rejected(SignatureRejection.INVALID_SIGNATURE));
    }

    @Test
    void rejectsRAtOrAboveTheCurveOrder() {
        assertThat(verdict(N, S, 27)).isEqualTo(rejected(SignatureRejection.INVALID_SIGNATURE));
        assertThat(verdict(xCoordinate(true).add(N), S, 27)).as("x + n is below p and names a point, yet ecrecover refuses it")
                .isEqualTo(rejected(SignatureRejection.INVALID_SIGNATURE));
        assertThat(verdict(P.subtract(BigInteger.ONE), S, 28)).isEqualTo(rejected(SignatureRejection.INVALID_SIGNATURE));
    }

    /** The contract checks s against n/2 before anything else, so any s ≥ n reads as high-s. */
    @Test
    void rejectsSAtOrAboveTheCurveOrderAsHighS() {
        assertThat(verdict(R, N, 27)).isEqualTo(rejected(SignatureRejection.HIGH_S));
        assertThat(verdict(R, BigInteger.ONE.shiftLeft(256).subtract(BigInteger.ONE), 27))
                .isEqualTo(rejected(SignatureRejection.HIGH_S));
    }

    @Test
    void acceptsSExactlyHalfTheOrderAndRejectsOneMore() {
        assertThat(verdict(R, HALF_N, 27)).isInstanceOf(SignatureVerdict.Recovered.class);
        assertThat(verdict(R, HALF_N.add(BigInteger.ONE), 27)).isEqualTo(rejected(SignatureRejection.HIGH_S));
    }

    @Test
    void rejectsRThatIsNotTheXCoordinateOfAPoint() {
        assertThat(verdict(notAnXCoordinate(), S, 27)).isEqualTo(rejected(SignatureRejection.INVALID_SIGNATURE));
        assertThat(verdict(notAnXCoordinate(), S, 28)).isEqualTo(rejected(SignatureRejection.INVALID_SIGNATURE));
    }

    @ParameterizedTest(name = "v = {0}")
    @ValueSource(ints = {2, 3, 25, 26, 29, 30, 35, 36, 37, 38, 127, 128, 255})
    void rejectsEveryOtherV(int v) {
        assertThat(verdict(R, S, v)).isEqualTo(rejected(SignatureRejection.INVALID_V));
    }

    @ParameterizedTest(name = "v = {0}")
    @ValueSource(ints = {0, 1, 27, 28})
    void acceptsVZeroOneTwentySevenTwentyEight(int v) {
        assertThat(verdict(R, S, v)).isInstanceOf(SignatureVerdict.Recovered.class);
    }

    @Test
    void checksLengthFirstThenSThenV() {
        assertThat(ContractSignatureRule.recover(DIGEST, new byte[0])).isEqualTo(rejected(SignatureRejection.INVALID_LENGTH));
        assertThat(ContractSignatureRule.recover(DIGEST, new byte[64])).isEqualTo(rejected(SignatureRejection.INVALID_LENGTH));
        assertThat(verdict(BigInteger.ZERO, N.subtract(BigInteger.ONE), 99)).isEqualTo(rejected(SignatureRejection.HIGH_S));
        assertThat(verdict(BigInteger.ZERO, BigInteger.ZERO, 99)).isEqualTo(rejected(SignatureRejection.INVALID_V));
    }

    @Test
    void refusesADigestThatIsNot32Bytes() {
        assertThatThrownBy(() -> ContractSignatureRule.recover(new byte[31], signature(R, S, 27)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void runsOnTheNativeLibraryWhereItShips() {
        String os = System.getProperty("os.name").toLowerCase();
        String arch = System.getProperty("os.arch");
        if (os.contains("linux") && (arch.equals("amd64") || arch.equals("aarch64"))) {
            assertThat(ContractSignatureRule.Preferred.RECOVERY).isInstanceOf(NativeRecovery.class);
        }
        assertThat(ContractSignatureRule.implementation()).isNotBlank();
    }

    /** Smallest x ≥ 1 for which x³ + 7 has no square root mod p: no point has it as x. */
    static BigInteger notAnXCoordinate() {
        return xCoordinate(false);
    }

    /** Smallest x ≥ 1 that is (or is not) the x-coordinate of a curve point, by Euler's criterion. */
    static BigInteger xCoordinate(boolean onCurve) {
        BigInteger exponent = P.subtract(BigInteger.ONE).shiftRight(1);
        for (BigInteger x = BigInteger.ONE; ; x = x.add(BigInteger.ONE)) {
            BigInteger rhs = x.pow(3).add(BigInteger.valueOf(7)).mod(P);
            if (rhs.modPow(exponent, P).equals(BigInteger.ONE) == onCurve) {
                return x;
            }
        }
    }

    static byte[] signature(BigInteger r, BigInteger s, int v) {
        byte[] out = new byte[65];
        Words.putUint256(out, 0, r, "r");
        Words.putUint256(out, 32, s, "s");
        out[64] = (byte) v;
        return out;
    }

    private static SignatureVerdict verdict(BigInteger r, BigInteger s, int v) {
        return ContractSignatureRule.recover(DIGEST, signature(r, s, v));
    }

    private static SignatureVerdict rejected(SignatureRejection reason) {
        return new SignatureVerdict.Rejected(reason);
    }
}
