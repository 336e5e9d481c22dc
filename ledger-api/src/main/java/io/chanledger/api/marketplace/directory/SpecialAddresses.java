package io.chanledger.api.marketplace.directory;

import java.net.InetAddress;
import java.util.List;
import java.util.Optional;

/**
 * The special-purpose address blocks this service never calls on a registrant's behalf: every entry
 * of the IANA IPv4 Special-Purpose Address Registry
 * (https://www.iana.org/assignments/iana-ipv4-special-registry) and of the IANA IPv6
 * Special-Purpose Address Registry (https://www.iana.org/assignments/iana-ipv6-special-registry),
 * as they stood in 2025 (RFC 6890 and RFC 8190 describe them), plus multicast (the IANA multicast
 * address space registries) and the deprecated IPv4-compatible and site-local IPv6 blocks.
 *
 * <p>The registries mark most entries not globally reachable (private use, loopback, link-local,
 * shared address space, documentation, benchmarking, reserved). The few they mark globally
 * reachable (anycast service addresses, AS112, AMT, ORCHIDv2, drone tags) or N/A (6to4, Teredo)
 * are refused too: no provider serves from them, and the translation and tunnel prefixes (NAT64's
 * 64:ff9b::/96 among them) reach IPv4 hosts through a translator this service cannot see, which may
 * stand in the operator's own network.
 */
final class SpecialAddresses {

    static final List<AddressBlock> BLOCKS = List.of(
            // IANA IPv4 Special-Purpose Address Registry
            block("0.0.0.0/8", "\"This network\", RFC 791"),
            block("0.0.0.0/32", "\"This host on this network\", RFC 1122"),
            block("10.0.0.0/8", "Private-Use, RFC 1918"),
            block("100.64.0.0/10", "Shared Address Space, RFC 6598"),
            block("127.0.0.0/8", "Loopback, RFC 1122"),
            block("169.254.0.0/16", "Link Local, RFC 3927"),
            block("172.16.0.0/12", "Private-Use, RFC 1918"),
            block("192.0.0.0/24", "IETF Protocol Assignments, RFC 6890"),
            block("192.0.0.0/29", "IPv4 Service Continuity Prefix, RFC 7335"),
            block("192.0.0.8/32", "IPv4 dummy address, RFC 7600"),
            block("192.0.0.9/32", "Port Control Protocol Anycast, RFC 7723"),
            block("192.0.0.10/32", "Traversal Using Relays around NAT Anycast, RFC 8155"),
            block("192.0.0.170/32", "NAT64/DNS64 Discovery, RFC 8880"),
            block("192.0.0.171/32", "NAT64/DNS64 Discovery, RFC 8880"),
            block("192.0.2.0/24", "Documentation (TEST-NET-1), RFC 5737"),
            block("192.31.196.0/24", "AS112-v4, RFC 7535"),
            block("192.52.193.0/24", "AMT, RFC 7450"),
            block("192.88.99.0/24", "Deprecated (6to4 Relay Anycast), RFC 7526"),
            block("192.88.99.2/32", "6a44-relay anycast address, RFC 6751"),
            block("192.168.0.0/16", "Private-Use, RFC 1918"),
            block("192.175.48.0/24", "Direct Delegation AS112 Service, RFC 7534"),
            block("198.18.0.0/15", "Benchmarking, RFC 2544"),
            block("198.51.100.0/24", "Documentation (TEST-NET-2), RFC 5737"),
            block("203.0.113.0/24", "Documentation (TEST-NET-3), RFC 5737"),
            block("240.0.0.0/4", "Reserved, RFC 1112"),
            block("255.255.255.255/32", "Limited Broadcast, RFC 8190"),
            // IANA IPv4 Multicast Address Space Registry
            block("224.0.0.0/4", "Multicast, RFC 5771"),
            // IANA IPv6 Special-Purpose Address Registry
            block("::1/128", "Loopback Address, RFC 4291"),
            block("::/128", "Unspecified Address, RFC 4291"),
            block("::ffff:0:0/96", "IPv4-mapped Address, RFC 4291"),
            block("64:ff9b::/96", "IPv4-IPv6 Translation, RFC 6052"),
            block("64:ff9b:1::/48", "IPv4-IPv6 Translation, RFC 8215"),
            block("100::/64", "Discard-Only Address Block, RFC 6666"),
            block("100:0:0:1::/64", "Dummy IPv6 Prefix, RFC 9780"),
            block("2001::/23", "IETF Protocol Assignments, RFC 2928"),
            block("2001::/32", "TEREDO, RFC 4380"),
            block("2001:1::1/128", "Port Control Protocol Anycast, RFC 7723"),
            block("2001:1::2/128", "Traversal Using Relays around NAT Anycast, RFC 8155"),
            block("2001:1::3/128", "DNS-SD Service Registration Protocol Anycast, RFC 9665"),
            block("2001:2::/48", "Benchmarking, RFC 5180"),
            block("2001:3::/32", "AMT, RFC 7450"),
            block("2001:4:112::/48", "AS112-v6, RFC 7535"),
            block("2001:10::/28", "Deprecated (previously ORCHID), RFC 4843"),
            block("2001:20::/28", "ORCHIDv2, RFC 7343"),
            block("2001:30::/28", "Drone Remote ID Protocol Entity Tags (DETs) Prefix, RFC 9374"),
            block("2001:db8::/32", "Documentation, RFC 3849"),
            block("2002::/16", "6to4, RFC 3056"),
            block("2620:4f:8000::/48", "Direct Delegation AS112 Service, RFC 7534"),
            block("3fff::/20", "Documentation, RFC 9637"),
            block("5f00::/16", "Segment Routing (SRv6) SIDs, RFC 9602"),
            block("fc00::/7", "Unique-Local, RFC 4193"),
            block("fe80::/10", "Link-Local Unicast, RFC 4291"),
            // IANA IPv6 Multicast Address Space Registry, and blocks the registry no longer lists
            block("ff00::/8", "Multicast, RFC 4291"),
            block("::/96", "IPv4-compatible Address (deprecated), RFC 4291"),
            block("fec0::/10", "Site-Local (deprecated), RFC 3879"));

    private SpecialAddresses() {
    }

    /** The first block of the table holding {@code address}. */
    static Optional<AddressBlock> holding(InetAddress address) {
        return BLOCKS.stream().filter(block -> block.contains(address)).findFirst();
    }

    private static AddressBlock block(String cidr, String name) {
        return AddressBlock.parse(cidr, name);
    }
}
