package io.chanledger.api.support;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.net.spi.InetAddressResolver;
import java.net.spi.InetAddressResolverProvider;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * Host names a test makes up, under {@value #DOMAIN}, that resolve to the addresses it chooses:
 * one answer per lookup in turn, the last one repeated, each lookup counted. So a test can play a
 * name that answers one address when it is checked and another when it is connected to (DNS
 * rebinding), and see how often a name was asked. Every other name resolves as the JVM's own
 * resolver says.
 *
 * <p>It is the test JVM's resolver ({@code META-INF/services/java.net.spi.InetAddressResolverProvider}),
 * and the build runs the tests without the JVM's cache of answers ({@code -Dsun.net.inetaddr.ttl=0}),
 * so that each lookup reaches it.
 */
public final class TestNames extends InetAddressResolverProvider {

    public static final String DOMAIN = ".chan.test";

    private record Answers(List<List<InetAddress>> answers, AtomicInteger lookups) {

        List<InetAddress> next() {
            int n = lookups.getAndIncrement();
            return answers.get(Math.min(n, answers.size() - 1));
        }
    }

    private static final Map<String, Answers> NAMES = new ConcurrentHashMap<>();

    /** A new name answering {@code answers} in turn (the last one from then on). */
    @SafeVarargs
    public static String name(String label, List<InetAddress>... answers) {
        if (answers.length == 0) {
            throw new IllegalArgumentException("a name needs at least one answer");
        }
        String name = label + "-" + UUID.randomUUID().toString().substring(0, 8) + DOMAIN;
        NAMES.put(name, new Answers(List.of(answers), new AtomicInteger()));
        return name;
    }

    /** How often {@code name} was looked up. */
    public static int lookups(String name) {
        Answers answers = NAMES.get(name.toLowerCase(Locale.ROOT));
        return answers == null ? 0 : answers.lookups().get();
    }

    public static InetAddress address(String literal) {
        try {
            return InetAddress.getByName(literal);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(literal + " is not an address literal", e);
        }
    }

    @Override
    public InetAddressResolver get(Configuration configuration) {
        InetAddressResolver builtin = configuration.builtinResolver();
        return new InetAddressResolver() {
            @Override
            public Stream<InetAddress> lookupByName(String host, LookupPolicy policy) throws UnknownHostException {
                String name = host.toLowerCase(Locale.ROOT);
                if (!name.endsWith(DOMAIN)) {
                    return builtin.lookupByName(host, policy);
                }
                Answers answers = NAMES.get(name);
                if (answers == null) {
                    throw new UnknownHostException(host);
                }
                boolean v4 = (policy.characteristics() & LookupPolicy.IPV4) != 0;
                boolean v6 = (policy.characteristics() & LookupPolicy.IPV6) != 0;
                List<InetAddress> found = answers.next().stream()
                        .filter(a -> a instanceof Inet4Address ? v4 : a instanceof Inet6Address && v6).toList();
                if (found.isEmpty()) {
                    throw new UnknownHostException(host);
                }
                return found.stream();
            }

            @Override
            public String lookupByAddress(byte[] address) throws UnknownHostException {
                return builtin.lookupByAddress(address);
            }
        };
    }

    @Override
    public String name() {
        return "chan-test-names";
    }
}
