package io.chanledger.domain.eip712;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.HexFormat;
import org.web3j.crypto.Hash;

/**
 * Strict {@code 0x}-prefixed hexadecimal: the only spelling the chain and the wire formats use.
 * Nothing here trims, guesses a missing prefix or pads an odd length, so a malformed value is
 * refused where it enters instead of becoming a different value further in.
 */
public final class Hex {

    private static final HexFormat LOWER = HexFormat.of();

    private Hex() {
    }

    /** Decodes {@code 0x} followed by an even number of hex digits (either case); "0x" is empty. */
    public static byte[] decode(String text) {
        if (text == null) {
            throw new IllegalArgumentException("hex value is missing");
        }
        if (!text.startsWith("0x")) {
            throw new IllegalArgumentException("hex value must start with 0x");
        }
        int digits = text.length() - 2;
        if (digits % 2 != 0) {
            throw new IllegalArgumentException("hex value has an odd number of digits (" + digits + ")");
        }
        byte[] out = new byte[digits / 2];
        for (int i = 0; i < out.length; i++) {
            int hi = digit(text, 2 + 2 * i);
            int lo = digit(text, 3 + 2 * i);
            out[i] = (byte) (hi << 4 | lo);
        }
        return out;
    }

    /** Decodes like {@link #decode} and insists on exactly {@code length} bytes. */
    public static byte[] decode(String text, int length) {
        if (text != null && text.length() != 2 + 2 * length) {
            throw new IllegalArgumentException(
                    "hex value must be 0x followed by " + 2 * length + " hex digits, got " + (text.length() - 2));
        }
        return decode(text);
    }

    /** Lowercase {@code 0x}-prefixed hex. */
    public static String encode(byte[] bytes) {
        return "0x" + LOWER.formatHex(bytes);
    }

    /** {@code 0x} and 40 hex digits in any case; says nothing about the checksum. */
    public static boolean isAddress(String text) {
        return isHexOfLength(text, 40);
    }

    /** {@code 0x} and 64 hex digits in any case. */
    public static boolean isBytes32(String text) {
        return isHexOfLength(text, 64);
    }

    /**
     * The domain's spelling of an address (lowercase). All-lowercase and all-uppercase input is
     * taken as is; mixed case is an EIP-55 checksum and must be right, because a wrong one means
     * someone mistyped the address.
     */
    public static String normalizeAddress(String text) {
        if (!isAddress(text)) {
            throw new IllegalArgumentException("not an address (0x followed by 40 hex digits)");
        }
        String body = text.substring(2);
        boolean mixed = !body.equals(body.toLowerCase(Locale.ROOT)) && !body.equals(body.toUpperCase(Locale.ROOT));
        if (mixed && !isValidChecksum(text)) {
            throw new IllegalArgumentException("address has a mixed-case spelling that is not its EIP-55 checksum");
        }
        return "0x" + body.toLowerCase(Locale.ROOT);
    }

    /** EIP-55 spelling of an address given in any case. */
    public static String toChecksumAddress(String address) {
        if (!isAddress(address)) {
            throw new IllegalArgumentException("not an address (0x followed by 40 hex digits)");
        }
        String lower = address.substring(2).toLowerCase(Locale.ROOT);
        byte[] hash = Hash.sha3(lower.getBytes(StandardCharsets.US_ASCII));
        StringBuilder out = new StringBuilder(42).append("0x");
        for (int i = 0; i < lower.length(); i++) {
            char c = lower.charAt(i);
            int nibble = (hash[i / 2] >> (i % 2 == 0 ? 4 : 0)) & 0xf;
            out.append(c >= 'a' && nibble >= 8 ? Character.toUpperCase(c) : c);
        }
        return out.toString();
    }

    /**
     * Whether the address is spelled exactly as its EIP-55 checksum. Meant for mixed-case input;
     * an all-lowercase address carries no checksum and is only "valid" here if it has no letters.
     */
    public static boolean isValidChecksum(String address) {
        return isAddress(address) && toChecksumAddress(address).equals(address);
    }

    private static boolean isHexOfLength(String text, int digits) {
        if (text == null || text.length() != digits + 2 || !text.startsWith("0x")) {
            return false;
        }
        for (int i = 2; i < text.length(); i++) {
            if (hexValue(text.charAt(i)) < 0) {
                return false;
            }
        }
        return true;
    }

    private static int digit(String text, int index) {
        int value = hexValue(text.charAt(index));
        if (value < 0) {
            throw new IllegalArgumentException("hex value has a non-hex character at position " + index);
        }
        return value;
    }

    /** ASCII only: {@link Character#digit} would also take other scripts' digits. */
    private static int hexValue(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    }
}
