package io.chanledger.api.marketplace.directory;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The network a client address belongs to, as the quotas of unverified reports count: an IPv4
 * address's /24 ({@code 203.0.113.0/24}), an IPv6 address's /48 ({@code 2001:db8:7::/48}; one
 * site's allocation, so a host that picks a new address for every request stays one source), an
 * IPv4 address mapped into IPv6 as IPv4. Anything else a proxy header may carry is its own source,
 * cut to {@value #MAX_OTHER} characters. Never resolves a name.
 */
final class SourceNetwork {

    static final int MAX_OTHER = 64;
    private static final Pattern IPV4 = Pattern.compile("(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})");
    private static final Pattern IPV6 = Pattern.compile("[0-9A-Fa-f:][0-9A-Fa-f:.]*");

    private SourceNetwork() {
    }

    static String of(String address) {
        String candidate = address.strip();
        if (candidate.startsWith("[") && candidate.endsWith("]")) {
            candidate = candidate.substring(1, candidate.length() - 1);
        }
        int zone = candidate.indexOf('%');
        if (zone >= 0) {
            candidate = candidate.substring(0, zone);
        }
        Matcher v4 = IPV4.matcher(candidate);
        if (v4.matches() && octet(v4.group(1)) && octet(v4.group(2)) && octet(v4.group(3)) && octet(v4.group(4))) {
            return Integer.parseInt(v4.group(1)) + "." + Integer.parseInt(v4.group(2)) + "."
                    + Integer.parseInt(v4.group(3)) + ".0/24";
        }
        if (candidate.indexOf(':') >= 0 && IPV6.matcher(candidate).matches()) {
            try {
                // starting with a hex digit or a colon and holding a colon, it is parsed as a literal, never looked up
                InetAddress parsed = InetAddress.getByName(candidate);
                byte[] bytes = parsed.getAddress();
                if (parsed instanceof Inet4Address) {
                    return (bytes[0] & 0xff) + "." + (bytes[1] & 0xff) + "." + (bytes[2] & 0xff) + ".0/24";
                }
                return String.format("%x:%x:%x::/48", word(bytes, 0), word(bytes, 2), word(bytes, 4));
            } catch (UnknownHostException | IllegalArgumentException notAnAddress) {
                // not an IPv6 literal after all: its own source, below
            }
        }
        return address.length() > MAX_OTHER ? address.substring(0, MAX_OTHER) : address;
    }

    private static boolean octet(String digits) {
        return Integer.parseInt(digits) <= 255;
    }

    private static int word(byte[] bytes, int at) {
        return (bytes[at] & 0xff) << 8 | bytes[at + 1] & 0xff;
    }
}
