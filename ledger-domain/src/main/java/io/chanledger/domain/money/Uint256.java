package io.chanledger.domain.money;

import java.math.BigInteger;

/** On-chain uint256 values as decimal strings: parsed strictly, and written. */
public final class Uint256 {

    public static final BigInteger MAX = BigInteger.ONE.shiftLeft(256).subtract(BigInteger.ONE);

    /** 2^256-1 has 78 decimal digits. */
    public static final int MAX_DIGITS = 78;

    private Uint256() {
    }

    /**
     * Strict: ASCII digits only (no sign, whitespace, exponent, prefix or separators); leading
     * zeros allowed; at most 78 digits; at most 2^256-1. The length is checked before anything
     * else so an enormous input costs nothing. Messages never echo the input.
     */
    public static BigInteger parseDecimal(String text) {
        if (text == null) {
            throw new InvalidUint256Exception("uint256 value is missing");
        }
        if (text.isEmpty()) {
            throw new InvalidUint256Exception("uint256 value is empty");
        }
        if (text.length() > MAX_DIGITS) {
            throw new InvalidUint256Exception("uint256 value has " + text.length()
                    + " characters; a uint256 has at most " + MAX_DIGITS + " decimal digits");
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                throw new InvalidUint256Exception("uint256 value has " + describe(c) + " at position " + i
                        + "; only the digits 0-9 are allowed");
            }
        }
        BigInteger value = new BigInteger(text);
        if (value.compareTo(MAX) > 0) {
            throw new InvalidUint256Exception("uint256 value exceeds 2^256-1");
        }
        return value;
    }

    /**
     * {@code value.toString()}, the same text. A value that fits a {@code long}, as base-unit amounts
     * and nonces nearly always do, is written without BigInteger's general conversion, which divides
     * per 18 digits and leaves its working numbers behind as garbage; the ledger writes several such
     * values for every paid request, in its events and in the payment headers.
     */
    public static String decimal(BigInteger value) {
        return value.bitLength() < Long.SIZE ? Long.toString(value.longValue()) : value.toString();
    }

    /** Whether {@code value} fits a uint256. */
    public static boolean fits(BigInteger value) {
        return value != null && value.signum() >= 0 && value.compareTo(MAX) <= 0;
    }

    static String describe(char c) {
        if (c >= 0x21 && c < 0x7f) {
            return "'" + c + "'";
        }
        return String.format("the character U+%04X", (int) c);
    }
}
