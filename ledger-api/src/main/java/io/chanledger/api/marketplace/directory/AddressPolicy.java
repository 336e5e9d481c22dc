package io.chanledger.api.marketplace.directory;

import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Registration and health checks make this service call URLs that strangers chose. Unless
 * {@code chan.marketplace.allow-private-addresses} is set, a host is refused when any address it
 * resolves to lies in a special-purpose block ({@link SpecialAddresses}: private, loopback,
 * link-local, shared, documentation, benchmarking, translation, multicast, reserved...), is an
 * address of one of this machine's network interfaces (whatever its range: a host with a public
 * address must not call itself), or lies in {@code chan.marketplace.refused-addresses} (what the
 * machine's interfaces do not show: its public address behind NAT, a balancer's).
 *
 * <p>The host is resolved once, here, and the caller connects to exactly the addresses returned
 * (see {@link ProviderTarget}): a name that answers differently the next time it is asked (DNS
 * rebinding) reaches nothing that was not checked.
 */
final class AddressPolicy {

    /** Why a host is not called: for the operator's log; the registrant is told "unreachable" only. */
    static final class Refused extends Exception {
        Refused(String message) {
            super(message, null, false, false);
        }
    }

    /** Resolves a host name or literal (host of a URI, IPv6 in brackets) to its addresses. */
    @FunctionalInterface
    interface Resolver {
        InetAddress[] resolve(String host) throws UnknownHostException;
    }

    private final boolean allowPrivate;
    private final List<AddressBlock> refused;
    private final Resolver resolver;
    private final Supplier<List<InetAddress>> ownAddresses;

    AddressPolicy(boolean allowPrivate, List<AddressBlock> refused) {
        this(allowPrivate, refused, InetAddress::getAllByName, AddressPolicy::interfaceAddresses);
    }

    AddressPolicy(boolean allowPrivate, List<AddressBlock> refused, Resolver resolver,
                  Supplier<List<InetAddress>> ownAddresses) {
        this.allowPrivate = allowPrivate;
        this.refused = List.copyOf(refused);
        this.resolver = resolver;
        this.ownAddresses = ownAddresses;
    }

    /** The addresses {@code host} resolves to, each of them one this service may call. */
    List<InetAddress> resolve(String host) throws Refused {
        InetAddress[] addresses;
        try {
            addresses = resolver.resolve(host);
        } catch (UnknownHostException | RuntimeException e) {
            throw new Refused("host " + host + " does not resolve");
        }
        if (addresses.length == 0) {
            throw new Refused("host " + host + " does not resolve");
        }
        if (!allowPrivate) {
            List<InetAddress> own = ownAddresses();
            for (InetAddress address : addresses) {
                Optional<String> why = refusal(address, own);
                if (why.isPresent()) {
                    throw new Refused("host " + host + " resolves to " + address.getHostAddress() + ", " + why.get());
                }
            }
        }
        return List.of(addresses);
    }

    private Optional<String> refusal(InetAddress address, List<InetAddress> own) {
        Optional<AddressBlock> special = SpecialAddresses.holding(address);
        if (special.isPresent()) {
            return Optional.of("in the special-purpose block " + special.get());
        }
        if (own.stream().anyMatch(mine -> Arrays.equals(mine.getAddress(), address.getAddress()))) {
            return Optional.of("an address of this machine");
        }
        return refused.stream().filter(block -> block.contains(address)).findFirst()
                .map(block -> "in chan.marketplace.refused-addresses " + block.cidr());
    }

    private List<InetAddress> ownAddresses() throws Refused {
        try {
            return ownAddresses.get();
        } catch (RuntimeException e) {
            // unknown addresses of its own would let a name reach this machine: refuse while they are
            throw new Refused("this machine's own addresses could not be listed: " + e.getMessage());
        }
    }

    /** Every address of every network interface of this machine, up or down. */
    static List<InetAddress> interfaceAddresses() {
        try {
            return NetworkInterface.networkInterfaces().flatMap(NetworkInterface::inetAddresses)
                    .collect(Collectors.toList());
        } catch (SocketException e) {
            throw new IllegalStateException("the network interfaces could not be listed", e);
        }
    }
}
