package io.chanledger.api.marketplace.directory;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.regex.Pattern;

/**
 * A block of IP addresses in CIDR notation ({@code 198.18.0.0/15}, {@code 64:ff9b::/96}; a lone
 * address is its own block), with what it is. IPv4 and IPv6 blocks are apart: an IPv4 address is
 * never in an IPv6 block. Java reads an IPv4-mapped IPv6 literal ({@code ::ffff:10.0.0.1}) as the
 * IPv4 address, so such an address is judged by the IPv4 blocks.
 */
record AddressBlock(String cidr, byte[] network, int prefixLength, String name) {

    /** Literals only, so that parsing never looks a name up: dotted IPv4, or IPv6 with its colons. */
    private static final Pattern LITERAL = Pattern.compile("[0-9]{1,3}(\\.[0-9]{1,3}){3}|[0-9A-Fa-f.]*:[0-9A-Fa-f:.]*");

    /** {@code cidr}: an address literal, optionally {@code /prefix-length}. */
    static AddressBlock parse(String cidr, String name) {
        String text = cidr.strip();
        int slash = text.indexOf('/');
        String address = slash < 0 ? text : text.substring(0, slash);
        if (!LITERAL.matcher(address).matches()) {
            throw new IllegalArgumentException("'" + cidr + "' is not an IP address or CIDR block");
        }
        byte[] bytes = bytes(address);
        int prefix;
        try {
            prefix = slash < 0 ? bytes.length * 8 : Integer.parseInt(text.substring(slash + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + cidr + "' has no prefix length after its '/'");
        }
        if (prefix < 0 || prefix > bytes.length * 8) {
            throw new IllegalArgumentException("'" + cidr + "' has a prefix length beyond its address");
        }
        return new AddressBlock(text, bytes, prefix, name);
    }

    boolean contains(InetAddress address) {
        byte[] candidate = address.getAddress();
        if (candidate.length != network.length) {
            return false;
        }
        int whole = prefixLength / 8;
        if (!Arrays.equals(candidate, 0, whole, network, 0, whole)) {
            return false;
        }
        int rest = prefixLength % 8;
        if (rest == 0) {
            return true;
        }
        int mask = 0xff << (8 - rest) & 0xff;
        return (candidate[whole] & mask) == (network[whole] & mask);
    }

    /** The address's bytes; an IPv6 literal stays 16 bytes even when Java would read it as IPv4. */
    private static byte[] bytes(String literal) {
        InetAddress parsed;
        try {
            parsed = InetAddress.getByName(literal);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("'" + literal + "' is not an IP address");
        }
        byte[] bytes = parsed.getAddress();
        if (literal.contains(":") && parsed instanceof Inet4Address) {
            byte[] mapped = new byte[16];
            mapped[10] = (byte) 0xff;
            mapped[11] = (byte) 0xff;
            System.arraycopy(bytes, 0, mapped, 12, 4);
            return mapped;
        }
        return bytes;
    }

    @Override
    public String toString() {
        return cidr + " (" + name + ")";
    }
}
