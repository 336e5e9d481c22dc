package io.chanledger.api.provider.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import io.chanledger.api.support.SecretsFile;
import io.chanledger.api.support.ServiceProcess;
import io.chanledger.testsupport.Devnet;
import java.io.IOException;
import java.math.BigInteger;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
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
    /** A flat-priced service (0.002 USDC) of an HTTP upstream the test serves itself. */
    private static final String SERVICE_MODEL = "counter";
    private static final String SERVICE_BODY = Agent.chatBody(SERVICE_MODEL, "{\\\"text\\\":\\\"hold\\\"}", null, false);
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

    /**
     * A hold commits without waiting for the disk (only the settlement's commit waits), so the
     * database can lose it when it is killed before anything flushes its log. Here the upstream is
     * a service that stalls, so no settlement commits, the database's log writer is stopped, and the
     * service and its database are killed the moment every request has reached the upstream, which
     * is right after its hold committed. Whether a
     * hold survived (then it is released at the restart and its voucher refused) or was lost with
     * the database (then its voucher is admitted afresh and served), each channel is charged
     * exactly for the answers its agent received, once, and no hold is left.
     */
    @Test
    void holdsTheKilledDatabaseMayHaveLostChargeNothingTheAgentDidNotReceive(@TempDir Path dataDir) throws Exception {
        CountDownLatch reached = new CountDownLatch(CHANNELS);
        CountDownLatch unstall = new CountDownLatch(1);
        HttpServer upstream = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        upstream.setExecutor(Executors.newCachedThreadPool(Thread.ofPlatform().daemon().factory()));
        upstream.createContext("/count", exchange -> {
            exchange.getRequestBody().readAllBytes();
            reached.countDown();
            try {
                unstall.await(3, TimeUnit.MINUTES);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            byte[] answer = "{\"words\":1}".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, answer.length);
            exchange.getResponseBody().write(answer);
            exchange.close();
        });
        upstream.start();
        try {
            Devnet devnet = Devnet.shared();
            Credentials providerWallet = Credentials.create(Keys.createEcKeyPair());
            List<String> arguments = new ArrayList<>(arguments(dataDir, devnet, providerWallet));
            arguments.addAll(List.of("--chan.gateway.upstreams[1].name=counter",
                    "--chan.gateway.upstreams[1].kind=http",
                    "--chan.gateway.upstreams[1].url=http://127.0.0.1:" + upstream.getAddress().getPort() + "/count",
                    "--chan.gateway.models[1].id=" + SERVICE_MODEL, "--chan.gateway.models[1].upstream=counter",
                    "--chan.gateway.models[1].pricing=flat", "--chan.gateway.models[1].price=0.002",
                    "--chan.gateway.models[1].parameters={\"type\":\"object\",\"required\":[\"text\"],"
                            + "\"properties\":{\"text\":{\"type\":\"string\"}}}",
                    "--chan.gateway.models[1].example={\"text\":\"one\"}"));
            Path log = dataDir.resolve("service.log");
            ServiceProcess service = ServiceProcess.start(log, Map.of(), arguments);
            List<Agent> agents = openChannels(service, devnet, providerWallet);
            // the database's log writer is stopped, so the holds' log stays in memory unless a commit
            // that waits for the disk flushes it: what a power cut would find
            for (long pid : ServiceProcess.embeddedDatabaseProcesses(dataDir)) {
                if (Files.readString(Path.of("/proc", Long.toString(pid), "cmdline")).contains("walwriter")) {
                    assertThat(new ProcessBuilder("kill", "-STOP", Long.toString(pid)).start().waitFor()).isZero();
                }
            }
            ExecutorService threads = Executors.newFixedThreadPool(agents.size());
            Map<String, String> vouchers = new LinkedHashMap<>();
            List<Future<Integer>> running = new ArrayList<>();
            for (Agent agent : agents) {
                String voucher = agent.nextVoucher(PRICE);
                vouchers.put(agent.channelId, voucher);
                running.add(threads.submit(() -> {
                    try {
                        return chat(service.baseUrl(), voucher, SERVICE_BODY).statusCode();
                    } catch (IOException cut) {
                        return -1;
                    }
                }));
            }
            assertThat(reached.await(60, TimeUnit.SECONDS)).as("every request reached the upstream; log:%n%s",
                    service.logTail()).isTrue();
            service.killHard();
            ServiceProcess.killEmbeddedDatabase(dataDir);
            unstall.countDown();
            threads.shutdown();
            for (Future<Integer> request : running) {
                assertThat(request.get(60, TimeUnit.SECONDS)).as("a stalled request cut by the kill").isEqualTo(-1);
            }

            ServiceProcess restarted = ServiceProcess.start(log, Map.of(), arguments, service.port());
            try {
                long settledBy = System.nanoTime() + Duration.ofSeconds(90).toNanos();
                int lost = 0;
                int released = 0;
                for (Agent agent : agents) {
                    HttpResponse<String> resent = chat(restarted.baseUrl(), vouchers.get(agent.channelId), SERVICE_BODY);
                    BigInteger received;
                    if (resent.statusCode() == 200) {
                        // the hold was lost with the database: the voucher is admitted afresh, served and charged
                        assertThat(resent.headers().firstValue("X-CHAN-Replay")).isEmpty();
                        received = cost(resent);
                        assertThat(received).isEqualTo(PRICE);
                        lost++;
                    } else {
                        // the hold survived: released at the restart, charged nothing, its voucher spent
                        assertThat(resent.statusCode()).as("the cut voucher of %s sent again: %s", agent.channelId,
                                resent.body()).isEqualTo(402);
                        assertThat(resent.headers().firstValue("X-CHAN-Error")).hasValue("invalid_nonce");
                        received = BigInteger.ZERO;
                        released++;
                    }
                    JsonNode channel = awaitSettled(restarted.baseUrl(), agent.channelId, received, settledBy);
                    assertThat(new BigInteger(channel.path("chargedTotal").asText()))
                            .as("charged on %s, whose agent received %s", agent.channelId, received).isEqualTo(received);
                    assertThat(channel.path("held").asText()).as("held on %s", agent.channelId).isEqualTo("0");
                    if (received.signum() > 0) {
                        HttpResponse<String> again = chat(restarted.baseUrl(), vouchers.get(agent.channelId),
                                SERVICE_BODY);
                        assertThat(again.headers().firstValue("X-CHAN-Replay")).hasValue("true");
                        assertThat(new BigInteger(adminGet(restarted.baseUrl() + "/api/channels/" + agent.channelId)
                                .path("chargedTotal").asText())).isEqualTo(received);
                    }
                }
                System.out.printf("holds cut by a SIGKILL of the service and its database with the upstream stalled:"
                        + " %d lost with the database and served afresh once, %d kept and released at no charge%n",
                        lost, released);
            } finally {
                restarted.stop();
            }
        } finally {
            unstall.countDown();
            upstream.stop(0);
        }
    }

    /** One agent per channel, each with a channel open to the provider. */
    private static List<Agent> openChannels(ServiceProcess service, Devnet devnet, Credentials providerWallet)
            throws Exception {
        List<Agent> agents = new ArrayList<>();
        for (int i = 0; i < CHANNELS; i++) {
            Agent agent = Agent.create(devnet, service.baseUrl());
            agent.open(providerWallet.getAddress(), BigInteger.valueOf(100_000_000L), 86_400);
            agents.add(agent);
        }
        return agents;
    }

    private void crashAndRecover(Path dataDir, boolean killTheDatabaseToo) throws Exception {
        Devnet devnet = Devnet.shared();
        Credentials providerWallet = Credentials.create(Keys.createEcKeyPair());
        List<String> arguments = arguments(dataDir, devnet, providerWallet);
        Path log = dataDir.resolve("service.log");
        ServiceProcess service = ServiceProcess.start(log, Map.of(), arguments);

        List<Agent> agents = openChannels(service, devnet, providerWallet);
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
            // the echo's delay keeps requests running: the kill cut some of them holding, which the restart
            // released. With the database killed too, a hold (committed without waiting for the disk) may
            // be lost with it, and its request is then served afresh like one that never arrived.
            if (killTheDatabaseToo) {
                assertThat(clients.values().stream().filter(client -> client.inFlight != null).count())
                        .as("requests cut by the kill").isPositive();
            } else {
                assertThat(refusedInFlight + replayedInFlight).as("requests cut by the kill after their admission")
                        .isPositive();
            }
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
        // No client waits for the others, yet their requests come to be answered together: the
        // settlements that wait for the disk share a commit. So the kill waits half an echo's delay,
        // for the requests sent on those answers to be admitted, and lands while each is running.
        Thread.sleep(ECHO_DELAY.toMillis() / 2);
        service.killHard();
        if (databaseDir != null) {
            ServiceProcess.killEmbeddedDatabase(databaseDir);
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
        return arguments(dataDir, devnet, provider, ECHO_DELAY);
    }

    private List<String> arguments(Path dataDir, Devnet devnet, Credentials provider, Duration echoDelay) {
        String providerKey = Numeric.toHexStringWithPrefixZeroPadded(provider.getEcKeyPair().getPrivateKey(), 64);
        return List.of("--chan.embedded-store.directory=" + dataDir,
                "--chan.chain.rpc-url=" + devnet.rpcUrl(),
                "--chan.listener.finality=depth", "--chan.listener.depth=0", "--chan.listener.poll-interval=500ms",
                "--chan.listener.start-block=" + devnet.deployBlock(),
                "--chan.gateway.watchtower.enabled=false",
                "--chan.gateway.models[0].id=" + MODEL,
                "--chan.gateway.models[0].name=Echo Flat",
                "--chan.gateway.models[0].pricing=flat",
                "--chan.gateway.models[0].price=0.002",
                "--chan.gateway.models[0].upstream=echo",
                "--chan.gateway.upstreams[0].name=echo",
                "--chan.gateway.upstreams[0].kind=echo",
                "--chan.gateway.upstreams[0].echo-answer-delay=" + echoDelay.toMillis() + "ms",
                "--logging.level.root=WARN", "--logging.level.io.chanledger=INFO",
                // snapshots every few events, taken with holds running and written while the kill can
                // land: the restarted service reads its channels, charges and holds back from them
                "--chan.ledger.snapshots.channel=5",
                SecretsFile.argument(dataDir, Map.of("chan.admin.token", ADMIN_TOKEN,
                        "chan.gateway.provider-key", providerKey)));
    }


    private HttpResponse<String> chat(String baseUrl, String voucher) throws IOException {
        return chat(baseUrl, voucher, Agent.chatBody(MODEL, "hello", null, false));
    }

    private HttpResponse<String> chat(String baseUrl, String voucher, String body) throws IOException {
        try {
            return http.send(HttpRequest.newBuilder(URI.create(baseUrl + "/v1/chat/completions"))
                    .header("Content-Type", "application/json").header("X-CHAN-Voucher", voucher)
                    .timeout(Duration.ofSeconds(30))
                    .POST(HttpRequest.BodyPublishers.ofString(body)).build(),
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
