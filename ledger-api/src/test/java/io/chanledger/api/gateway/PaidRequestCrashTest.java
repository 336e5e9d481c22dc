package io.chanledger.api.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chanledger.api.support.SecretsFile;
import io.chanledger.api.support.ServiceProcess;
import io.chanledger.chain.devnet.Devnet;
import java.io.IOException;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.web3j.crypto.Credentials;
import org.web3j.crypto.Keys;
import org.web3j.utils.Numeric;

/**
 * The money rules hold across a SIGKILL of the gateway in the middle of paid requests. The service
 * runs as an operator runs it (its own JVM, the default embedded store, following a devnet) with
 * its gateway selling the flat-priced echo model, whose answers come after a delay so that requests
 * are in flight; one client per channel pays request after request and records every answer it got
 * with its {@code X-CHAN-Cost} and {@code X-CHAN-Total}. The service is killed mid-load and started
 * again on the same data folder and port. Then, for every channel:
 * <ol>
 *   <li>the voucher whose request was in flight at the kill is sent again: either its answer was
 *   kept in the commit that charged it and comes back with {@code X-CHAN-Replay: true}, or it is
 *   refused (or, if it never reached the service, served now) — a charge never lacks its answer;</li>
 *   <li>the ledger's charged total is exactly the costs of the answers the client received plus
 *   those of the in-flight vouchers whose kept answer came back;</li>
 *   <li>no hold is left ({@code held} 0 in the channel read model);</li>
 *   <li>every answered voucher sent again returns its kept answer and charges nothing.</li>
 * </ol>
 */
class PaidRequestCrashTest {

    private static final String ADMIN_TOKEN = "paid-crash-admin";
    private static final String MODEL = "echo-flat";
    /** echo-flat's price of one request, USDC base units (0.002 USDC). */
    private static final BigInteger PRICE = BigInteger.valueOf(2_000);
    private static final int CHANNELS = 5;
    /** Answers received after which the service is killed, while every client has a request running. */
    private static final int KILL_AFTER = 40;
    /** The most any one client sends: the load is bounded even if the kill came late. */
    private static final int MOST_PER_CLIENT = 400;
    private static final Duration ECHO_DELAY = Duration.ofMillis(150);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @Test
    void everyChargeOfPaidRequestsCutByASigkillHasItsAnswerAndNoHoldOutlivesTheRestart(@TempDir Path dataDir)
            throws Exception {
        crashAndRecover(dataDir, false);
    }

    @Test
    void theSameHoldsWhenTheEmbeddedDatabaseIsKilledWithTheService(@TempDir Path dataDir) throws Exception {
        crashAndRecover(dataDir, true);
    }

    private void crashAndRecover(Path dataDir, boolean killTheDatabaseToo) throws Exception {
        Devnet devnet = Devnet.shared();
        Credentials providerWallet = Credentials.create(Keys.createEcKeyPair());
        List<String> arguments = arguments(dataDir, devnet, providerWallet);
        Path log = dataDir.resolve("service.log");
        ServiceProcess service = ServiceProcess.start(log, Map.of(), arguments);

        List<Agent> agents = new ArrayList<>();
        for (int i = 0; i < CHANNELS; i++) {
            Agent agent = Agent.create(devnet, service.baseUrl());
            agent.open(providerWallet.getAddress(), BigInteger.valueOf(100_000_000L), 86_400);
            agents.add(agent);
        }
        Map<String, Client> clients = load(service, agents, killTheDatabaseToo ? dataDir : null);

        ServiceProcess restarted = ServiceProcess.start(log, Map.of(), arguments, service.port());
        try {
            List<String> broken = new ArrayList<>();
            // one wait for all channels: the start-up release, or at worst its next round, comes well within it
            long settledBy = System.nanoTime() + Duration.ofSeconds(90).toNanos();
            int replayedInFlight = 0;
            int refusedInFlight = 0;
            int answeredBeforeKill = 0;
            for (Agent agent : agents) {
                Client client = clients.get(agent.channelId);
                answeredBeforeKill += client.answers.size();
                BigInteger received = client.answers.stream().map(Answer::cost).reduce(BigInteger.ZERO, BigInteger::add);
                BigInteger retrievable = BigInteger.ZERO;
                if (client.inFlight != null) {
                    HttpResponse<String> resent = chat(restarted.baseUrl(), client.inFlight);
                    String replay = resent.headers().firstValue("X-CHAN-Replay").orElse("");
                    if (resent.statusCode() == 200 && replay.equals("true")) {
                        // charged before the kill, answered never: the kept answer is what it paid for
                        retrievable = cost(resent);
                        replayedInFlight++;
                    } else if (resent.statusCode() == 200) {
                        // it never reached the killed service: a request served now, like any other
                        received = received.add(cost(resent));
                    } else {
                        // admitted and holding when the service died: released at start-up, charged nothing
                        assertThat(resent.statusCode()).as("the in-flight voucher of %s sent again: %s",
                                agent.channelId, resent.body()).isEqualTo(402);
                        assertThat(resent.headers().firstValue("X-CHAN-Error")).hasValue("invalid_nonce");
                        refusedInFlight++;
                    }
                }
                BigInteger expected = received.add(retrievable);
                JsonNode channel = awaitSettled(restarted.baseUrl(), agent.channelId, expected, settledBy);
                BigInteger charged = new BigInteger(channel.path("chargedTotal").asText());
                BigInteger held = new BigInteger(channel.path("held").asText());
                if (!charged.equals(expected) || held.signum() != 0) {
                    broken.add(agent.channelId + ": charged " + charged + ", held " + held + "; the client received "
                            + client.answers.size() + " answers costing " + received + ", in-flight voucher "
                            + (client.inFlight == null ? "none" : "retrievable for " + retrievable));
                    continue;
                }
                // re-sending answered vouchers gets their kept answers and charges nothing
                for (Answer answer : client.answers) {
                    HttpResponse<String> again = chat(restarted.baseUrl(), answer.voucher());
                    assertThat(again.statusCode()).as("answered voucher %d of %s sent again: %s", answer.nonce(),
                            agent.channelId, again.body()).isEqualTo(200);
                    assertThat(again.headers().firstValue("X-CHAN-Replay")).hasValue("true");
                    assertThat(cost(again)).isEqualTo(answer.cost());
                    assertThat(again.headers().firstValue("X-CHAN-Total").map(BigInteger::new)).hasValue(answer.total());
                }
                JsonNode after = adminGet(restarted.baseUrl() + "/api/channels/" + agent.channelId);
                assertThat(new BigInteger(after.path("chargedTotal").asText()))
                        .as("charged total of %s after its answered vouchers were sent again", agent.channelId)
                        .isEqualTo(charged);
            }
            assertThat(broken).as("channels whose charges and holds do not match what the clients got").isEmpty();
            // the echo's delay keeps requests running: the kill cut some of them holding, which the restart released
            assertThat(refusedInFlight + replayedInFlight).as("requests cut by the kill after their admission")
                    .isPositive();
            System.out.printf("%d paid answers received before the SIGKILL%s; of the requests it cut, %d had been "
                            + "charged and their answers were retrieved by their vouchers, %d were holding and were "
                            + "released at no charge; every charge matched, no hold was left%n",
                    answeredBeforeKill, killTheDatabaseToo ? " of the service and its database" : " of the service",
                    replayedInFlight, refusedInFlight);
        } finally {
            restarted.stop();
        }
    }

    /** What one channel's client got: its answers in order, and the voucher of the request cut by the kill. */
    private static final class Client {
        final List<Answer> answers = new ArrayList<>();
        volatile String inFlight;
    }

    private record Answer(long nonce, String voucher, BigInteger cost, BigInteger total) {
    }

    /**
     * One client per channel pays one request after the other (the voucher's amount is the running
     * total of the prices, as the budget rule allows for a flat price), records each answer, and
     * stops at the first request the kill cuts; the service is killed once {@link #KILL_AFTER}
     * answers came, while requests are running. With {@code databaseDir}, its database too.
     */
    private Map<String, Client> load(ServiceProcess service, List<Agent> agents, Path databaseDir) throws Exception {
        Map<String, Client> clients = new LinkedHashMap<>();
        AtomicInteger answered = new AtomicInteger();
        CountDownLatch enough = new CountDownLatch(1);
        ExecutorService threads = Executors.newFixedThreadPool(agents.size());
        List<Future<?>> running = new ArrayList<>();
        for (Agent agent : agents) {
            Client client = new Client();
            clients.put(agent.channelId, client);
            running.add(threads.submit(() -> {
                BigInteger total = BigInteger.ZERO;
                for (long nonce = 1; nonce <= MOST_PER_CLIENT; nonce++) {
                    String voucher = agent.nextVoucher(PRICE.multiply(BigInteger.valueOf(nonce)));
                    HttpResponse<String> reply;
                    try {
                        reply = chat(service.baseUrl(), voucher);
                    } catch (IOException cut) {
                        client.inFlight = voucher;
                        return null;
                    }
                    if (reply.statusCode() != 200) {
                        throw new AssertionError("request " + nonce + " of " + agent.channelId + ": "
                                + reply.statusCode() + " " + reply.body());
                    }
                    BigInteger cost = cost(reply);
                    BigInteger newTotal = reply.headers().firstValue("X-CHAN-Total").map(BigInteger::new).orElseThrow();
                    // one request at a time per channel: each total is the previous one plus this cost
                    assertThat(newTotal).as("X-CHAN-Total of request %d of %s", nonce, agent.channelId)
                            .isEqualTo(total.add(cost));
                    total = newTotal;
                    client.answers.add(new Answer(nonce, voucher, cost, newTotal));
                    if (answered.incrementAndGet() >= KILL_AFTER) {
                        enough.countDown();
                    }
                }
                return null;
            }));
        }
        assertThat(enough.await(120, TimeUnit.SECONDS)).as("%d answers within two minutes; log:%n%s", KILL_AFTER,
                service.logTail()).isTrue();
        // no client waits for the others: the kill lands while each has a request running
        service.killHard();
        if (databaseDir != null) {
            ServiceProcess.embeddedDatabaseProcesses(databaseDir).forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
        }
        threads.shutdown();
        assertThat(threads.awaitTermination(60, TimeUnit.SECONDS)).isTrue();
        for (Future<?> client : running) {
            client.get(); // a request refused before the kill fails the test here
        }
        return clients;
    }

    /**
     * Waits, until {@code deadline} ({@link System#nanoTime()}), for the channel read model to have
     * followed the restart: the holds of the killed process released at start-up and every re-sent
     * voucher recorded. Answers the channel as it
     * then reads, or as it last read if it never got there (the caller reports the difference).
     */
    private JsonNode awaitSettled(String baseUrl, String channelId, BigInteger expectedCharged, long deadline)
            throws Exception {
        JsonNode channel = adminGet(baseUrl + "/api/channels/" + channelId);
        while (System.nanoTime() < deadline) {
            if (channel.path("held").asText().equals("0")
                    && channel.path("chargedTotal").asText().equals(expectedCharged.toString())) {
                return channel;
            }
            Thread.sleep(250);
            channel = adminGet(baseUrl + "/api/channels/" + channelId);
        }
        return channel;
    }

    private static BigInteger cost(HttpResponse<String> reply) {
        return reply.headers().firstValue("X-CHAN-Cost").map(BigInteger::new)
                .orElseThrow(() -> new AssertionError("no X-CHAN-Cost: " + reply.headers() + " " + reply.body()));
    }

    private List<String> arguments(Path dataDir, Devnet devnet, Credentials provider) {
        String providerKey = Numeric.toHexStringWithPrefixZeroPadded(provider.getEcKeyPair().getPrivateKey(), 64);
        return List.of("--chan.embedded-store.directory=" + dataDir,
                "--chan.chain.rpc-url=" + devnet.rpcUrl(),
                "--chan.listener.finality=depth", "--chan.listener.depth=0", "--chan.listener.poll-interval=500ms",
                "--chan.listener.start-block=" + devnet.deployBlock(),
                "--chan.gateway.enabled=true",
                "--chan.gateway.watchtower.enabled=false",
                "--chan.gateway.models[0].id=" + MODEL,
                "--chan.gateway.models[0].name=Echo Flat",
                "--chan.gateway.models[0].pricing=flat",
                "--chan.gateway.models[0].price=0.002",
                "--chan.gateway.upstream.kind=echo",
                "--chan.gateway.upstream.echo-answer-delay=" + ECHO_DELAY.toMillis() + "ms",
                "--logging.level.root=WARN", "--logging.level.io.chanledger=INFO",
                SecretsFile.argument(dataDir, Map.of("chan.admin.token", ADMIN_TOKEN,
                        "chan.gateway.provider-key", providerKey)));
    }


    private HttpResponse<String> chat(String baseUrl, String voucher) throws IOException {
        try {
            return http.send(HttpRequest.newBuilder(URI.create(baseUrl + "/v1/chat/completions"))
                    .header("Content-Type", "application/json").header("X-CHAN-Voucher", voucher)
                    .timeout(Duration.ofSeconds(30))
                    .POST(HttpRequest.BodyPublishers.ofString(Agent.chatBody(MODEL, "hello", null, false))).build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }

    private JsonNode adminGet(String url) throws Exception {
        HttpResponse<String> reply = http.send(HttpRequest.newBuilder(URI.create(url))
                .header("Authorization", "Bearer " + ADMIN_TOKEN).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(reply.statusCode()).as(reply.body()).isEqualTo(200);
        return JSON.readTree(reply.body());
    }
}
