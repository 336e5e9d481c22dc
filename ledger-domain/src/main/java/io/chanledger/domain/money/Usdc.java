package io.chanledger.domain.money;

import java.math.BigDecimal;
import java.math.BigInteger;

/** USDC amounts: decimal strings for people and prices, base units (6 decimals) everywhere else. */
public final class Usdc {

    public static final int DECIMALS = 6;

    private static final BigInteger ONE_USDC = BigInteger.TEN.pow(DECIMALS);

    private Usdc() {
    }

    /**
     * "0.00375" → 3750. Digits, optionally a '.' followed by 1 to 6 digits; no sign, exponent,
     * whitespace or grouping. The result must fit a uint256.
     */
    public static BigInteger parseDecimalUsdc(String text) {
        if (text == null) {
            throw new IllegalArgumentException("USDC amount is missing");
        }
        if (text.isEmpty()) {
            throw new IllegalArgumentException("USDC amount is empty");
        }
        if (text.length() > Uint256.MAX_DIGITS + 1) {
            throw new IllegalArgumentException("USDC amount has " + text.length() + " characters, too many for a uint256");
        }
        int point = -1;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '.' && point < 0) {
                point = i;
            } else if (c < '0' || c > '9') {
                throw new IllegalArgumentException("USDC amount has " + Uint256.describe(c) + " at position " + i
                        + "; expected digits with at most one '.'");
            }
        }
        if (point == 0) {
            throw new IllegalArgumentException("USDC amount needs a digit before the '.'");
        }
        if (point == text.length() - 1) {
            throw new IllegalArgumentException("USDC amount needs a digit after the '.'");
        }
        int fractionDigits = point < 0 ? 0 : text.length() - point - 1;
        if (fractionDigits > DECIMALS) {
            throw new IllegalArgumentException("USDC amount has " + fractionDigits
                    + " fraction digits; USDC has " + DECIMALS);
        }
        String digits = point < 0 ? text : text.substring(0, point) + text.substring(point + 1);
        BigInteger units = new BigInteger(digits).multiply(BigInteger.TEN.pow(DECIMALS - fractionDigits));
        if (!Uint256.fits(units)) {
            throw new IllegalArgumentException("USDC amount exceeds the uint256 range in base units");
        }
        return units;
    }

    /** 3750 → "0.00375", 5000000 → "5": plain decimal, trailing zeros stripped. */
    public static String formatDecimalUsdc(BigInteger baseUnits) {
        if (baseUnits == null) {
            throw new IllegalArgumentException("USDC amount is missing");
        }
        if (baseUnits.signum() < 0) {
            throw new IllegalArgumentException("USDC amount is negative");
        }
        if (baseUnits.signum() == 0) {
            return "0";
        }
        return new BigDecimal(baseUnits, DECIMALS).stripTrailingZeros().toPlainString();
    }

    /** Whole USDC to base units, for configuration and tests. */
    public static BigInteger ofWhole(long usdc) {
        if (usdc < 0) {
            throw new IllegalArgumentException("USDC amount is negative");
        }
        return BigInteger.valueOf(usdc).multiply(ONE_USDC);
    }
}
