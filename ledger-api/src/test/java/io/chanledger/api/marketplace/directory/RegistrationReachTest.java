package io.chanledger.api.marketplace.directory;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.chanledger.api.config.Role;
import io.chanledger.api.support.Http;
import io.chanledger.api.support.LedgerIntegrationTest;
import io.chanledger.api.support.RoleInstance;
import io.chanledger.api.support.TestNames;
import io.chanledger.domain.eip712.DigestSigner;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.ServerSocket;
import java.net.SocketException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * What a registration can make this service call, on a marketplace of its own with the production
 * default (private addresses refused) and the production rate limit of registrations: not this
 * machine by any of its addresses, not a special-purpose address, not a name that answers one
 * address when checked and another when connected to; and a refusal reads "unreachable", exactly
 * as a connection that failed does. Nothing is called before the rate limit admits a registration.
 */
class RegistrationReachTest extends LedgerIntegrationTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final AtomicInteger CLIENTS = new AtomicInteger();
    /** Refused by the instance's chan.marketplace.refused-addresses, as an operator lists its public address. */
    private static final String OPERATORS_OWN = "93.184.215.14";
    /** A public address the instance may call (it has no provider: the test needs only that it is not refused). */
    private static final String PUBLIC = "93.184.216.34";

    private static ConfigurableApplicationContext strict;
    private static String strictUrl;

    @BeforeAll
    static void startStrictMarketplace() {
        strict = RoleInstance.start(Role.MARKETPLACE, "chan_ledger_registration_reach", Map.of(
                "chan.marketplace.allow-private-addresses", false,
                "chan.marketplace.refused-addresses", "93.184.215.0/24",
                "chan.marketplace.registration.capacity", 5,
                "chan.marketplace.registration.refill-interval", "1h",
                "chan.marketplace.registration.connection-timeout", "2s",
                "chan.marketplace.health.enabled", false));
        strictUrl = RoleInstance.baseUrl(strict);
    }

    @AfterAll
    static void stopStrictMarketplace() {
        if (strict != null) {
            strict.close();
        }
    }

    /** Each registration from a client address of its own, unless the rate limit is the point. */
    private static String newClient() {
        int n = CLIENTS.incrementAndGet();
        return "10.83." + (n / 250) + "." + (1 + n % 250);
    }

    private static ObjectNode registration(String apiUrl) {
        return Registrations.body(Registrations.newWallet("reach"), apiUrl, b -> { });
    }

    private static Http.Reply registerStrict(String apiUrl) {
        return Registrations.post(strictUrl, registration(apiUrl), newClient());
    }

    private static String url(String literal, int port) {
        return "http://" + (literal.contains(":") ? "[" + literal + "]" : literal) + ":" + port;
    }

    /** The answer with the URL the registrant sent taken out: what is left must say no more than "unreachable". */
    private static JsonNode withoutUrl(Http.Reply reply, String apiUrl) {
        try {
            return JSON.readTree(reply.body().replace(apiUrl, "{apiUrl}"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void assertUnreachable(Http.Reply reply, String apiUrl) {
        assertThat(reply.status()).as("%s: %s", apiUrl, reply.body()).isEqualTo(422);
        JsonNode problem = withoutUrl(reply, apiUrl);
        assertThat(problem.path("code").asText()).isEqualTo("connection_test_failed");
        assertThat(problem.path("reason").asText()).isEqualTo("unreachable");
        assertThat(problem.path("detail").asText()).isEqualTo("the connection test of {apiUrl} failed: unreachable");
        assertThat(problem.path("field").asText()).isEqualTo("apiUrl");
        assertThat(problem.has("check")).isFalse();
    }

    /** This machine's addresses other than loopback that a test can listen on and name in a URL. */
    private static List<InetAddress> ownNonLoopbackAddresses() throws SocketException {
        List<InetAddress> addresses = new ArrayList<>();
        for (NetworkInterface nic : NetworkInterface.networkInterfaces().toList()) {
            for (InetAddress address : nic.inetAddresses().toList()) {
                boolean scoped = address instanceof Inet6Address v6 && v6.getScopeId() != 0;
                if (!address.isLoopbackAddress() && !scoped) {
                    addresses.add(address);
                }
            }
        }
        return addresses;
    }

    @Test
    void noAddressOfThisMachineIsCalled() throws Exception {
        List<InetAddress> own = ownNonLoopbackAddresses();
        assertThat(own).as("the machine has an address other than loopback").isNotEmpty();
        int tried = 0;
        for (InetAddress address : own) {
            StubProvider provider;
            try {
                provider = new StubProvider(Registrations.newWallet("own").address(), new InetSocketAddress(address, 0));
            } catch (IllegalStateException cannotListen) {
                continue;
            }
            try (provider) {
                // the URL, proven reachable from here, is what a stranger would register
                assertThat(Http.get(provider.url() + "/v1/docs").status()).isEqualTo(200);
                int seen = provider.requests();

                assertUnreachable(registerStrict(provider.url()), provider.url());

                assertThat(provider.requests()).as("calls the marketplace made to %s", address).isEqualTo(seen);
                tried++;
            }
        }
        assertThat(tried).as("addresses of this machine listened on").isPositive();
    }

    @Test
    void everySpecialPurposeAddressIsRefusedAsUnreachable() {
        Set<String> literals = new LinkedHashSet<>(AddressPolicyTest.REQUIRED);
        literals.addAll(AddressPolicyTest.everyBlocksEnds());
        for (String literal : literals) {
            String apiUrl = url(literal, 80);
            assertUnreachable(registerStrict(apiUrl), apiUrl);
        }
    }

    @Test
    void namesOfThisMachineAndAnAddressTheOperatorRefusesAreUnreachable() {
        for (String host : new String[] {"localhost", "LOCALHOST", "localhost.", OPERATORS_OWN}) {
            String apiUrl = "http://" + host + ":8080";
            assertUnreachable(registerStrict(apiUrl), apiUrl);
        }
    }

    /**
     * An address refused before any connection and a connection refused by the host answer alike,
     * and both take the signed registration's nonce.
     */
    @Test
    void aRefusedAddressAnswersAsAConnectionThatFailed() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }
        String closed = "http://127.0.0.1:" + closedPort;
        ObjectNode failing = registration(closed);
        Http.Reply connectionFailed = Registrations.post(baseUrl(), failing, newClient());
        String special = "http://198.18.0.1:" + closedPort;
        ObjectNode refusing = registration(special);
        Http.Reply addressRefused = Registrations.post(strictUrl, refusing, newClient());

        assertUnreachable(connectionFailed, closed);
        assertUnreachable(addressRefused, special);
        assertThat(withoutUrl(addressRefused, special)).isEqualTo(withoutUrl(connectionFailed, closed));
        assertThat(Registrations.post(baseUrl(), failing, newClient()).json().path("code").asText())
                .isEqualTo("nonce_already_used");
        assertThat(Registrations.post(strictUrl, refusing, newClient()).json().path("code").asText())
                .isEqualTo("nonce_already_used");
    }

    /**
     * A name that answers a public address while it is checked and this machine's loopback when it
     * is connected to reaches nothing local: the name is asked once and the connection goes to the
     * address checked.
     */
    @Test
    void aNameIsAskedOnceAndTheConnectionGoesToTheAddressChecked() {
        DigestSigner wallet = Registrations.newWallet("rebinding");
        try (StubProvider local = new StubProvider(wallet.address())) {
            InetAddress checked = TestNames.address(PUBLIC);
            String name = TestNames.name("rebinding", List.of(checked), List.of(checked),
                    List.of(TestNames.address("127.0.0.1")));
            String apiUrl = "http://" + name + ":" + local.port();

            Http.Reply reply = Registrations.post(strictUrl, Registrations.body(wallet, apiUrl, b -> { }), newClient());

            assertThat(reply.status()).as(reply.body()).isEqualTo(422);
            assertThat(local.requests()).as("calls that reached this machine").isZero();
            assertThat(TestNames.lookups(name)).isEqualTo(1);
        }
    }

    @Test
    void aBurstOfRegistrationsFromOneAddressIsLimitedBeforeAnythingIsCalled() {
        String name = TestNames.name("burst", List.of(TestNames.address("198.18.0.7")));
        String client = newClient();
        List<Http.Reply> replies = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            replies.add(Registrations.post(strictUrl, registration("http://" + name), client));
        }

        assertThat(replies.subList(0, 5)).allSatisfy(reply -> assertThat(reply.status()).isEqualTo(422));
        assertThat(replies.subList(5, 30)).allSatisfy(reply -> {
            assertThat(reply.status()).as(reply.body()).isEqualTo(429);
            assertThat(reply.contentType()).startsWith("application/problem+json");
            assertThat(reply.json().path("code").asText()).isEqualTo("rate_limited");
            assertThat(Long.parseLong(reply.raw().headers().firstValue("Retry-After").orElseThrow())).isPositive();
        });
        assertThat(TestNames.lookups(name)).as("registrations that went as far as the apiUrl").isEqualTo(5);
        assertThat(Registrations.post(strictUrl, registration("http://" + name), newClient()).status())
                .as("another address is not limited").isEqualTo(422);
    }
}
