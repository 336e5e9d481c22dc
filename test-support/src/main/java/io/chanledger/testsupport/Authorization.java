package io.chanledger.testsupport;

import java.math.BigInteger;
import java.security.SecureRandom;

import org.web3j.utils.Numeric;

/**
 * The fields of an EIP-3009 authorization, as x402's {@code exact} payload carries them: {@code from}
 * lets {@code value} base units go to {@code to} in a block whose timestamp is strictly between
 * {@code validAfter} and {@code validBefore}, once per {@code nonce} (32 bytes, 0x-hex).
 */
public record Authorization(String from, String to, BigInteger value, BigInteger validAfter, BigInteger validBefore,
                            String nonce) {

    private static final SecureRandom RANDOM = new SecureRandom();

    /** An authorization with a fresh random nonce, as x402 clients make them. */
    public static Authorization of(String from, String to, BigInteger value, long validAfter, long validBefore) {
        return new Authorization(from, to, value, BigInteger.valueOf(validAfter), BigInteger.valueOf(validBefore),
                randomNonce());
    }

    public static String randomNonce() {
        byte[] nonce = new byte[32];
        RANDOM.nextBytes(nonce);
        return Numeric.toHexString(nonce);
    }

    public Authorization withValue(BigInteger newValue) {
        return new Authorization(from, to, newValue, validAfter, validBefore, nonce);
    }

    public Authorization withNonce(String newNonce) {
        return new Authorization(from, to, value, validAfter, validBefore, newNonce);
    }
}
