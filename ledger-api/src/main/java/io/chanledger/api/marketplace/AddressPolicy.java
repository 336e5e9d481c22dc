package io.chanledger.api.marketplace;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;

/**
 * Registration and health checks make this service call URLs that strangers chose. Unless
 * {@code chan.marketplace.allow-private-addresses} is set, a host that resolves to a loopback,
 * private, link-local, carrier-grade NAT, unique-local, multicast or unspecified address is
 * refused, so the service cannot be pointed at its own network. The check runs on every call, on
 * the addresses the name resolves to then; a name that changes its answer between the check and
 * the connection (DNS rebinding) is the remaining gap, which a deployment closes with an egress
 * proxy or firewall.
 */
final class AddressPolicy {

    private final boolean allowPrivate;

    AddressPolicy(boolean allowPrivate) {
        this.allowPrivate = allowPrivate;
    }

    /** Throws when the host may not be called; an unresolvable host is a probe failure, not a policy one. */
    void check(URI uri) throws BlockedAddressException, ProbeFailure {
        if (allowPrivate) {
            return;
        }
        InetAddress[] addresses;
        try {
            addresses = InetAddress.getAllByName(uri.getHost());
        } catch (UnknownHostException e) {
            throw new ProbeFailure("host " + uri.getHost() + " does not resolve");
        }
        for (InetAddress address : addresses) {
            if (isInternal(address)) {
                throw new BlockedAddressException("host " + uri.getHost() + " resolves to " + address.getHostAddress()
                        + ", an internal address this service does not call");
            }
        }
    }

    static boolean isInternal(InetAddress address) {
        if (address.isLoopbackAddress() || address.isSiteLocalAddress() || address.isLinkLocalAddress()
                || address.isAnyLocalAddress() || address.isMulticastAddress()) {
            return true;
        }
        byte[] b = address.getAddress();
        if (address instanceof Inet4Address) {
            int first = b[0] & 0xff;
            int second = b[1] & 0xff;
            return first == 0 || first == 100 && second >= 64 && second < 128 || first >= 240;
        }
        if (address instanceof Inet6Address) {
            return (b[0] & 0xfe) == 0xfc;
        }
        return false;
    }

    static final class BlockedAddressException extends Exception {
        BlockedAddressException(String message) {
            super(message, null, false, false);
        }
    }
}
