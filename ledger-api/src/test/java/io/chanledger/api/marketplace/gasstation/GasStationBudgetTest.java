package io.chanledger.api.marketplace.gasstation;

import static io.chanledger.api.marketplace.gasstation.GasStationFixtures.FIVE_USDC;
import static io.chanledger.api.marketplace.gasstation.GasStationFixtures.GRANT;
import static io.chanledger.api.marketplace.gasstation.GasStationFixtures.faucetWith;
import static io.chanledger.api.marketplace.gasstation.GasStationFixtures.nonce;
import static io.chanledger.api.marketplace.gasstation.GasStationFixtures.polBalance;
import static io.chanledger.api.marketplace.gasstation.GasStationFixtures.walletWith;
import static org.assertj.core.api.Assertions.assertThat;

import io.chanledger.api.config.Role;
import io.chanledger.api.support.Http;
import io.chanledger.api.support.LedgerIntegrationTest;
import io.chanledger.api.support.RoleInstance;
import io.chanledger.testsupport.Devnet;
import io.chanledger.testsupport.RpcProxy;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.ConfigurableApplicationContext;
import org.web3j.crypto.Credentials;
import org.web3j.utils.Numeric;

/**
 * The budget of all grants counts grants made, through HTTP, on a marketplace of its own with the
 * production budget (10 grants; refilled too slowly to matter here), a faucet of its own, and a
 * proxy in front of the node that can make the station's faucet nonce unreadable.
 */
class GasStationBudgetTest {

    private static final int BUDGET = 10;
    private static final AtomicInteger CLIENTS = new AtomicInteger();

    private static RpcProxy node;
    private static Credentials faucet;
    private static ConfigurableApplicationContext context;
    private static String base;

    @TempDir
    static Path secrets;

    @BeforeAll
    static void start() throws Exception {
        Devnet devnet = Devnet.shared();
        node = new RpcProxy(devnet.rpcUrl());
        faucet = faucetWith(devnet, Devnet.GAS_MONEY);
        Path faucetKey = Files.writeString(secrets.resolve("faucet.key"),
                Numeric.toHexStringWithPrefixZeroPadded(faucet.getEcKeyPair().getPrivateKey(), 64));
        context = RoleInstance.start(Role.MARKETPLACE, "chan_ledger_gas_budget", Map.of(
                "chan.chain.rpc-url", node.url(),
                "chan.chain.rpc.attempts", 1,
                // the tests' own settings name anvil's account 9 inline, which a key file does not override
                "chan.gas-station.faucet-key", "",
                "chan.gas-station.faucet-key-file", faucetKey.toString(),
                "chan.gas-station.grants.capacity", BUDGET,
                "chan.gas-station.grants.refill-interval", "6h"));
        base = RoleInstance.baseUrl(context);
    }

    @AfterAll
    static void stop() {
        if (context != null) {
            context.close();
        }
        node.close();
    }

    /** Each request from a client address of its own: the per-client limit is not the point here. */
    private static Http.Reply ask(String wallet) {
        int n = CLIENTS.incrementAndGet();
        return Http.send(HttpRequest.newBuilder(URI.create(base + "/api/gas-station"))
                .header("Content-Type", "application/json")
                .header("X-Forwarded-For", "10.81." + (n / 250) + "." + (1 + n % 250))
                .POST(HttpRequest.BodyPublishers.ofString("{\"address\":\"" + wallet + "\"}")));
    }

    private static String code(Http.Reply reply) {
        return reply.json().path("code").asText(reply.status() == 200 ? "granted" : "");
    }

    @Test
    void thirtyRequestsForOneWalletSpendOneGrantAndFailedAttemptsNoneOfTheBudget() throws Exception {
        Devnet devnet = Devnet.shared();
        String wallet = walletWith(devnet, FIVE_USDC);
        int requests = 30;
        CountDownLatch go = new CountDownLatch(1);
        List<Future<Http.Reply>> futures = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(requests)) {
            for (int i = 0; i < requests; i++) {
                Callable<Http.Reply> request = () -> {
                    go.await();
                    return ask(wallet);
                };
                futures.add(pool.submit(request));
            }
            go.countDown();
        }
        List<String> codes = new ArrayList<>();
        for (Future<Http.Reply> future : futures) {
            codes.add(code(future.get()));
        }

        Map<String, Long> byCode = codes.stream().collect(Collectors.groupingBy(c -> c, Collectors.counting()));
        assertThat(byCode).as("one grant, the other requests wait for it or find it made").containsEntry("granted", 1L);
        assertThat(byCode.keySet()).as(byCode.toString()).isSubsetOf("granted", "grant_pending", "already_granted");
        assertThat(polBalance(devnet, wallet)).isEqualTo(GRANT);

        // attempts that fail after the reservation: the node answers no faucet nonce, nothing is sent
        node.unavailableFor(Set.of("eth_getTransactionCount"));
        for (int i = 0; i < 3; i++) {
            String failing = walletWith(devnet, FIVE_USDC);
            assertThat(code(ask(failing))).isEqualTo("rpc_unavailable");
            assertThat(polBalance(devnet, failing)).isZero();
        }
        node.unavailableFor(Set.of());
        // refusals before the reservation, as ever
        assertThat(code(ask(wallet))).isEqualTo("already_granted");
        assertThat(code(ask(walletWith(devnet, FIVE_USDC.subtract(BigInteger.ONE)))))
                .isEqualTo("insufficient_usdc");

        List<String> others = new ArrayList<>();
        for (int i = 0; i < BUDGET - 1; i++) {
            String other = walletWith(devnet, FIVE_USDC);
            others.add(other);
            assertThat(code(ask(other))).as("wallet %d of the %d the budget has left", i + 1, BUDGET - 1)
                    .isEqualTo("granted");
        }
        String oneTooMany = walletWith(devnet, FIVE_USDC);
        Http.Reply refused = ask(oneTooMany);

        assertThat(code(refused)).isEqualTo("grant_limit_reached");
        assertThat(refused.raw().headers().firstValue("Retry-After")).isPresent();
        assertThat(others).allSatisfy(other -> assertThat(polBalance(devnet, other)).isEqualTo(GRANT));
        assertThat(polBalance(devnet, oneTooMany)).isZero();
        assertThat(nonce(devnet, faucet.getAddress())).as("exactly the budget's transfers").isEqualTo(BUDGET);
    }
}
