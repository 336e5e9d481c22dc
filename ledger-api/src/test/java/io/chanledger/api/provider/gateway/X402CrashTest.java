package io.chanledger.api.provider.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.chanledger.api.support.Http;
import io.chanledger.api.support.SecretsFile;
import io.chanledger.api.support.ServiceProcess;
import io.chanledger.testsupport.Authorization;
import io.chanledger.testsupport.Devnet;
import java.math.BigInteger;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.web3j.crypto.Credentials;
import org.web3j.crypto.Keys;
import org.web3j.protocol.core.DefaultBlockParameterName;
import org.web3j.utils.Numeric;

/**
 * An x402 payment whose provider is killed with SIGKILL between sending its settlement and
 * answering: the service runs as an operator runs it (its own JVM, the embedded store, following
 * the devnet), the devnet mines nothing while the settlement is on its way, and the process is
 * killed once its transaction is in the node's pool. Started again on the same data, it refuses
 * the same payment while the transaction is unmined (never signing another), and once it is mined
 * answers that payment with the answer it paid for: one transfer, charged once.
 */
class X402CrashTest {

    private static final String MODEL = "echo-flat";
    private static final BigInteger PRICE = BigInteger.valueOf(2_000);
    private static final BigInteger FUNDS = BigInteger.valueOf(1_000_000);

    @Test
    void aPaymentCutBySigkillWhileItsSettlementIsOnItsWayIsSettledOnceAndItsAnswerFetchedAgain(@TempDir Path dataDir)
            throws Exception {
        Devnet devnet = Devnet.shared();
        Credentials provider = Credentials.create(Keys.createEcKeyPair());
        devnet.setBalance(provider.getAddress(), Devnet.GAS_MONEY);
        List<String> arguments = arguments(dataDir, devnet, provider);
        Path log = dataDir.resolve("service.log");
        ServiceProcess service = ServiceProcess.start(log, Map.of(), arguments);
        ServiceProcess restarted = null;
        try {
            X402Agent agent = X402Agent.create(devnet, service.baseUrl(), FUNDS);
            String body = Agent.chatBody(MODEL, "hello", null, false);
            JsonNode offer = agent.offerFor(body);
            assertThat(offer.path("amount").asText()).isEqualTo(PRICE.toString());
            Authorization authorization = agent.authorize(offer);
            String payment = X402Agent.encode(agent.v2Json(offer, authorization, agent.sign(authorization)));

            devnet.rpc().setAutomine(false);
            CompletableFuture<Integer> cut = CompletableFuture.supplyAsync(() -> {
                try {
                    return agent.send(body, X402Agent.V2, payment).status();
                } catch (AssertionError connectionLost) {
                    return -1;
                }
            });
            awaitPending(devnet, provider.getAddress(), service);
            service.killHard();
            assertThat(cut.get()).as("the request cut by the kill").isEqualTo(-1);

            restarted = ServiceProcess.start(log, Map.of(), arguments, service.port());
            X402Agent again = X402Agent.create(devnet, restarted.baseUrl(), BigInteger.ZERO);
            Http.Reply whileUnmined = again.send(body, X402Agent.V2, payment);
            assertThat(whileUnmined.status()).as(whileUnmined.body()).isIn(402, 409);
            assertThat(whileUnmined.body()).doesNotContain("choices");
            assertThat(Numeric.toBigInt(pendingCount(devnet, provider.getAddress()))).isEqualTo(BigInteger.ONE);

            devnet.rpc().setAutomine(true);
            devnet.rpc().mine();
            Http.Reply fetched = null;
            long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
            while (System.nanoTime() < deadline) {
                fetched = again.send(body, X402Agent.V2, payment);
                if (fetched.status() == 200) {
                    break;
                }
                assertThat(fetched.status()).as(fetched.body()).isIn(402, 409);
                Thread.sleep(500);
            }
            assertThat(fetched.status()).as("the kept answer after the restart; log:%n%s", restarted.logTail())
                    .isEqualTo(200);
            assertThat(GatewayReplies.header(fetched, "X-CHAN-Replay")).isEqualTo("true");
            assertThat(fetched.json().path("choices").path(0).path("message").path("content").isTextual()).isTrue();
            assertThat(X402Agent.decode(GatewayReplies.header(fetched, "PAYMENT-RESPONSE")).path("success")
                    .asBoolean()).isTrue();
            assertThat(agent.balance()).isEqualTo(FUNDS.subtract(PRICE));
            assertThat(devnet.balanceOf(provider.getAddress())).isEqualTo(PRICE);
            assertThat(Numeric.toBigInt(pendingCount(devnet, provider.getAddress()))).isEqualTo(BigInteger.ONE);

            Http.Reply once = again.send(body, X402Agent.V2, payment);
            assertThat(once.status()).isEqualTo(200);
            assertThat(once.body()).isEqualTo(fetched.body());
            assertThat(agent.balance()).isEqualTo(FUNDS.subtract(PRICE));
        } finally {
            devnet.rpc().setAutomine(true);
            service.killHard();
            if (restarted != null) {
                restarted.stop();
            }
        }
    }

    /** Waits for the settlement's transaction to reach the node's pool. */
    private static void awaitPending(Devnet devnet, String provider, ServiceProcess service) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            if (Numeric.toBigInt(pendingCount(devnet, provider)).signum() > 0) {
                return;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("no settlement was sent; log:\n" + service.logTail());
    }

    private static String pendingCount(Devnet devnet, String account) throws Exception {
        return Numeric.toHexStringWithPrefix(devnet.web3j().ethGetTransactionCount(account,
                DefaultBlockParameterName.PENDING).send().getTransactionCount());
    }

    private static List<String> arguments(Path dataDir, Devnet devnet, Credentials provider) {
        String providerKey = Numeric.toHexStringWithPrefixZeroPadded(provider.getEcKeyPair().getPrivateKey(), 64);
        return List.of("--chan.embedded-store.directory=" + dataDir,
                "--chan.chain.rpc-url=" + devnet.rpcUrl(),
                "--chan.chain.usdc=" + devnet.usdcAddress(),
                "--chan.listener.finality=depth", "--chan.listener.depth=0", "--chan.listener.poll-interval=500ms",
                "--chan.listener.start-block=" + devnet.deployBlock(),
                "--chan.gateway.watchtower.enabled=false",
                "--chan.gateway.models[0].id=" + MODEL,
                "--chan.gateway.models[0].pricing=flat",
                "--chan.gateway.models[0].price=0.002",
                "--chan.gateway.models[0].upstream=echo",
                "--chan.gateway.upstreams[0].name=echo",
                "--chan.gateway.upstreams[0].kind=echo",
                "--logging.level.root=WARN", "--logging.level.io.chanledger=INFO",
                SecretsFile.argument(dataDir, Map.of("chan.admin.token", "x402-crash-admin",
                        "chan.gateway.provider-key", providerKey)));
    }
}
