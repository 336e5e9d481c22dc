package io.chanledger.api.ledger.channels.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chanledger.api.provider.gateway.Agent;
import io.chanledger.api.support.MinimalGateway;
import io.chanledger.api.support.SecretsFile;
import io.chanledger.api.support.ServiceProcess;
import io.chanledger.api.support.TestKeys;
import io.chanledger.testsupport.Devnet;
import java.io.IOException;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Nothing the default store acknowledged is lost when the service dies without a word: the service
 * runs as an operator runs it (its own JVM, the default profile, following a devnet), takes a
 * bounded voucher load, and is killed with SIGKILL in the middle of it; restarted on the same data
 * directory, every voucher it answered 200 to is in the ledger, and sent again it is a duplicate.
 * Killed with its database, the read models, whose batches do not wait for the disk, catch up with
 * every acknowledged voucher too.
 */
class EmbeddedStoreCrashTest {

    private static final String ADMIN_TOKEN = "crash-admin";
    private static final int CHANNELS = 6;
    /** Acknowledged vouchers after which the service is killed, while the clients keep sending. */
    private static final int KILL_AFTER = 360;
    /** The most any one client sends: the load is bounded even if the kill came late. */
    private static final int MOST_PER_CLIENT = 1_000;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @Test
    void vouchersAcknowledgedBeforeASigkillOfTheServiceAreInTheLedgerAfterItsRestart(@TempDir Path dataDir)
            throws Exception {
        crashAndRecover(dataDir, false);
    }

    @Test
    void vouchersAcknowledgedBeforeASigkillOfTheServiceAndItsDatabaseAreInTheLedgerAfterTheirRestart(
            @TempDir Path dataDir) throws Exception {
        crashAndRecover(dataDir, true);
    }

    private void crashAndRecover(Path dataDir, boolean killTheDatabaseToo) throws Exception {
        Devnet devnet = Devnet.shared();
        List<String> arguments = arguments(dataDir, devnet);
        Path log = dataDir.resolve("service.log");
        ServiceProcess service = ServiceProcess.start(log, Map.of(), arguments);

        String provider = TestKeys.wallet("provider-1").address();
        List<Agent> agents = new ArrayList<>();
        for (int i = 0; i < CHANNELS; i++) {
            Agent agent = Agent.create(devnet, service.baseUrl());
            agent.open(provider, BigInteger.valueOf(1_000_000_000L), 86_400);
            agents.add(agent);
        }
        Map<String, List<Acknowledged>> acknowledged = load(service, agents);
        service.killHard();
        // the server runs in a session of its own: the service's SIGKILL leaves it running, and the
        // restart below must stop it first, or kill it here as a crash of the whole machine would
        List<Long> databaseProcesses = ServiceProcess.embeddedDatabaseProcesses(dataDir);
        assertThat(databaseProcesses).as("the embedded database's processes after the service's kill").isNotEmpty();
        if (killTheDatabaseToo) {
            ServiceProcess.killEmbeddedDatabase(dataDir);
        }
        int total = acknowledged.values().stream().mapToInt(List::size).sum();
        assertThat(total).as("vouchers acknowledged before the kill").isGreaterThanOrEqualTo(KILL_AFTER);

        ServiceProcess restarted = ServiceProcess.start(log, Map.of(), arguments);
        try {
            List<String> lost = new ArrayList<>();
            for (Agent agent : agents) {
                List<Acknowledged> mine = acknowledged.get(agent.channelId);
                Acknowledged last = mine.getLast();
                JsonNode channel = adminGet(restarted.baseUrl() + "/api/channels/" + agent.channelId);
                long highestNonce = Long.parseLong(channel.path("highestVoucher").path("nonce").asText("0"));
                if (highestNonce < last.nonce()) {
                    lost.add(agent.channelId + ": " + (last.nonce() - highestNonce) + " acknowledged vouchers missing"
                            + " (highest nonce " + highestNonce + ", last acknowledged " + last.nonce() + ")");
                    continue;
                }
                assertThat(new BigInteger(channel.path("highestVoucher").path("amount").asText()))
                        .isGreaterThanOrEqualTo(last.amount());
                assertThat(channel.path("voucherCount").asLong()).isGreaterThanOrEqualTo(mine.size());
                HttpResponse<String> resent = post(restarted.baseUrl() + "/api/channels/" + agent.channelId
                        + "/vouchers", last.body());
                assertThat(resent.statusCode()).as(resent.body()).isEqualTo(200);
                assertThat(JSON.readTree(resent.body()).path("duplicate").asBoolean())
                        .as("the last acknowledged voucher of %s sent again", agent.channelId).isTrue();
            }
            assertThat(lost).as("acknowledged vouchers lost of %d", total).isEmpty();
            // The read models commit without waiting for the disk: a batch the killed database lost
            // took its tracking token with it, so the events are projected again. The listing reads
            // the read model alone (a single channel's read may fold the events instead).
            for (Agent agent : agents) {
                long lastNonce = acknowledged.get(agent.channelId).getLast().nonce();
                await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).untilAsserted(() ->
                        assertThat(listedHighestNonce(restarted, provider, agent.channelId))
                                .as("the read model's highest nonce of %s", agent.channelId)
                                .isGreaterThanOrEqualTo(lastNonce));
            }
            if (!killTheDatabaseToo) {
                // the server the killed service left was stopped by the restart, not met by it
                assertThat(Files.readString(log)).contains("a killed service left running");
            }
            System.out.printf("%d vouchers acknowledged before the SIGKILL%s, all of them in the ledger after the restart%n",
                    total, killTheDatabaseToo ? " of the service and its database" : " of the service");
        } finally {
            restarted.stop();
        }
        assertThat(ServiceProcess.embeddedDatabaseProcesses(dataDir)).as("database processes left after a normal stop").isEmpty();
    }

    /**
     * One client per channel sends vouchers one after the other and records each one answered 200
     * as new; the service is killed once {@link #KILL_AFTER} are, and every client stops at its first
     * failed request.
     */
    private Map<String, List<Acknowledged>> load(ServiceProcess service, List<Agent> agents) throws Exception {
        Map<String, List<Acknowledged>> acknowledged = new ConcurrentHashMap<>();
        AtomicInteger count = new AtomicInteger();
        CountDownLatch enough = new CountDownLatch(1);
        ExecutorService clients = Executors.newFixedThreadPool(agents.size());
        List<Future<?>> running = new ArrayList<>();
        for (Agent agent : agents) {
            List<Acknowledged> mine = new ArrayList<>();
            acknowledged.put(agent.channelId, mine);
            running.add(clients.submit(() -> {
                for (long nonce = 1; nonce <= MOST_PER_CLIENT; nonce++) {
                    BigInteger amount = BigInteger.valueOf(1_000 * nonce);
                    String body = agent.nextVoucher(amount);
                    HttpResponse<String> reply;
                    try {
                        reply = post(service.baseUrl() + "/api/channels/" + agent.channelId + "/vouchers", body);
                    } catch (IOException e) {
                        return null; // the service is gone
                    }
                    if (reply.statusCode() != 200 || JSON.readTree(reply.body()).path("duplicate").asBoolean()) {
                        throw new AssertionError("voucher " + nonce + " of " + agent.channelId + ": "
                                + reply.statusCode() + " " + reply.body());
                    }
                    mine.add(new Acknowledged(nonce, amount, body));
                    if (count.incrementAndGet() >= KILL_AFTER) {
                        enough.countDown();
                    }
                }
                return null;
            }));
        }
        assertThat(enough.await(120, TimeUnit.SECONDS)).as("%d vouchers acknowledged within two minutes; log:%n%s",
                KILL_AFTER, service.logTail()).isTrue();
        // the kill lands while vouchers are in flight: no client waits for the others
        service.process().destroyForcibly();
        clients.shutdown();
        assertThat(clients.awaitTermination(60, TimeUnit.SECONDS)).isTrue();
        for (Future<?> client : running) {
            client.get(); // a voucher refused before the kill fails the test here
        }
        return acknowledged;
    }

    private List<String> arguments(Path dataDir, Devnet devnet) {
        return List.of(storeArgument(dataDir),
                "--chan.chain.rpc-url=" + devnet.rpcUrl(),
                "--chan.listener.finality=depth", "--chan.listener.depth=0", "--chan.listener.poll-interval=500ms",
                "--chan.listener.start-block=" + devnet.deployBlock(),
                "--logging.level.root=WARN", "--logging.level.io.chanledger=INFO",
                // snapshots every few events, taken and written while the kill can land: the restarted
                // service reads its channels back from them
                "--chan.ledger.snapshots.channel=5",
                // a process of every role runs the provider's gateway too, which needs its key and a model
                SecretsFile.argument(dataDir, MinimalGateway.settingsWith(Map.of("chan.admin.token", ADMIN_TOKEN))));
    }

    /** The default profile's store, in the test's folder instead of ./data. */
    private static String storeArgument(Path dataDir) {
        return "--chan.embedded-store.directory=" + dataDir;
    }


    /** The highest voucher nonce of a channel as the read model lists it (0 while it lists none). */
    private long listedHighestNonce(ServiceProcess service, String provider, String channelId) throws Exception {
        for (JsonNode channel : adminGet(service.baseUrl() + "/api/channels?provider=" + provider + "&limit=100")
                .path("channels")) {
            if (channel.path("channelId").asText().equalsIgnoreCase(channelId)) {
                return Long.parseLong(channel.path("highestVoucher").path("nonce").asText("0"));
            }
        }
        return 0;
    }

    private JsonNode adminGet(String url) throws Exception {
        HttpResponse<String> reply = http.send(HttpRequest.newBuilder(URI.create(url))
                .header("Authorization", "Bearer " + ADMIN_TOKEN).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(reply.statusCode()).as(reply.body()).isEqualTo(200);
        return JSON.readTree(reply.body());
    }

    private HttpResponse<String> post(String url, String body) throws IOException {
        try {
            return http.send(HttpRequest.newBuilder(URI.create(url)).header("Content-Type", "application/json")
                    .timeout(Duration.ofSeconds(30)).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }

    private record Acknowledged(long nonce, BigInteger amount, String body) {
    }
}
