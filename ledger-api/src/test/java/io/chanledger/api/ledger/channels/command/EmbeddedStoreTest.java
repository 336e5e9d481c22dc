package io.chanledger.api.ledger.channels.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.chanledger.api.LedgerApplication;
import io.chanledger.api.ledger.readmodels.ReadModelsCaughtUp;
import io.chanledger.api.support.Channels;
import io.chanledger.api.support.Http;
import io.chanledger.api.support.MinimalGateway;
import io.chanledger.api.support.SecretsFile;
import io.chanledger.api.support.TestKeys;
import io.chanledger.api.ledger.wallet.WalletAudience;
import io.chanledger.api.ledger.wallet.WalletSigning;
import io.chanledger.domain.eip712.DigestSigner;
import io.chanledger.projections.rebuild.ReadModelProgress;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The default profile (README's run command) starts on the embedded store, a PostgreSQL server the
 * service runs itself with its data in the data folder: every migration runs there, the ledger works
 * on it, and it commits as durably as the production store.
 */
class EmbeddedStoreTest {

    /** A process of every role runs the provider's gateway too, which needs its key and a model. */
    private static String providerKey(Path dataDir) {
        return SecretsFile.argument(dataDir, MinimalGateway.settingsWith(Map.of()));
    }

    @Test
    void theDefaultProfileRunsTheLedgerOnAnEmbeddedPostgresThatCommitsDurably(@TempDir Path dataDir) throws Exception {
        DigestSigner consumer = TestKeys.wallet("consumer-1");
        DigestSigner provider = TestKeys.wallet("provider-1");
        long serverPid;
        try (ConfigurableApplicationContext app = new SpringApplicationBuilder(LedgerApplication.class)
                .run("--server.port=0", "--chan.embedded-store.directory=" + dataDir, providerKey(dataDir))) {
            String base = "http://127.0.0.1:" + ((WebServerApplicationContext) app).getWebServer().getPort();
            String channelId = Channels.open(app.getBean(CommandGateway.class), consumer, provider,
                    BigInteger.valueOf(1_000_000), Instant.now().getEpochSecond() + 3_600);

            Http.Reply reply = Http.postJson(base + "/api/channels/" + channelId + "/vouchers",
                    Channels.voucherJson(consumer, channelId, 42, 1));

            assertThat(reply.status()).as(reply.body()).isEqualTo(200);
            // read as the consumer: the voucher is an off-chain figure, and this profile has no admin token
            // the audience this process names in its challenges
            String audience = app.getBean(WalletAudience.class).name();
            Http.Reply read = Http.send(WalletSigning.signedGet(base, audience, "/api/channels/" + channelId, consumer,
                    Instant.now().getEpochSecond()));
            assertThat(read.json().path("highestVoucher").path("amount").asText()).as(read.body()).isEqualTo("42");
            assertThat(Http.get(base + "/actuator/health").json().path("status").asText()).isEqualTo("UP");

            // an acknowledged commit is on disk: the library's test-database defaults are overridden
            JdbcTemplate jdbc = app.getBean(JdbcTemplate.class);
            assertThat(jdbc.queryForObject("SELECT version()", String.class)).startsWith("PostgreSQL");
            assertThat(jdbc.queryForObject("SHOW synchronous_commit", String.class)).isEqualTo("on");
            assertThat(jdbc.queryForObject("SHOW fsync", String.class)).isEqualTo("on");
            assertThat(jdbc.queryForObject("SHOW full_page_writes", String.class)).isEqualTo("on");
            assertThat(jdbc.queryForObject("SHOW listen_addresses", String.class)).isEqualTo("127.0.0.1");
            serverPid = Long.parseLong(Files.readAllLines(dataDir.resolve("postgres").resolve("postmaster.pid"))
                    .getFirst().trim());

            // a second service on the same data folder would start a second server on the same files
            assertThatThrownBy(() -> new SpringApplicationBuilder(LedgerApplication.class)
                    .run("--server.port=0", "--chan.embedded-store.directory=" + dataDir, providerKey(dataDir)).close())
                    .hasStackTraceContaining("is in use by another running service");
        }
        assertThat(Files.isDirectory(dataDir.resolve("postgres"))).isTrue();
        // a normal stop stops the server (it removes its pid file a moment before its process is gone)
        assertThat(Files.exists(dataDir.resolve("postgres").resolve("postmaster.pid"))).isFalse();
        ProcessHandle.of(serverPid).ifPresent(server -> server.onExit().orTimeout(10, TimeUnit.SECONDS).join());
    }

    @Test
    void aReplayOnTheEmbeddedStoreRebuildsTheSameReadModels(@TempDir Path dataDir) throws Exception {
        DigestSigner consumer = TestKeys.wallet("consumer-2");
        DigestSigner provider = TestKeys.wallet("provider-2");
        // one row in memory: the rebuild writes rows while it folds and reads some back
        try (ConfigurableApplicationContext app = new SpringApplicationBuilder(LedgerApplication.class)
                .run("--server.port=0", "--chan.embedded-store.directory=" + dataDir,
                        SecretsFile.argument(dataDir,
                                MinimalGateway.settingsWith(Map.of("chan.admin.token", "embedded-admin"))),
                        "--chan.read-models.rebuild-rows-in-memory=1", "--chan.read-models.rebuild-rows-per-write=1")) {
            String base = "http://127.0.0.1:" + ((WebServerApplicationContext) app).getWebServer().getPort();
            CommandGateway commands = app.getBean(CommandGateway.class);
            long expiry = Instant.now().getEpochSecond() + 3_600;
            String first = Channels.open(commands, consumer, provider, BigInteger.valueOf(1_000_000), expiry);
            String second = Channels.open(commands, consumer, provider, BigInteger.valueOf(2_000_000), expiry);
            for (int nonce = 1; nonce <= 3; nonce++) {
                for (String channelId : new String[] {first, second}) {
                    Http.Reply reply = Http.postJson(base + "/api/channels/" + channelId + "/vouchers",
                            Channels.voucherJson(consumer, channelId, 100L * nonce, nonce));
                    assertThat(reply.status()).as(reply.body()).isEqualTo(200);
                }
            }
            ReadModelsCaughtUp.await(app.getBean(ReadModelProgress.class), Duration.ofSeconds(30));

            HttpRequest.Builder replay = HttpRequest.newBuilder(URI.create(base + "/api/admin/replay"))
                    .header("Authorization", "Bearer embedded-admin");
            assertThat(Http.send(replay.POST(HttpRequest.BodyPublishers.noBody())).status()).isEqualTo(202);
            JsonNode status = await("the replay finishes").atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(100)).until(() -> Http.send(replay.GET()).json(),
                            s -> s.path("state").asText().matches("COMPLETED|FAILED"));

            assertThat(status.path("state").asText()).as(status.toString()).isEqualTo("COMPLETED");
            assertThat(status.path("matches").asBoolean()).as(status.toString()).isTrue();
            assertThat(status.path("after").path("checksum").path("tables").get(0).path("rows").asLong()).isEqualTo(2);
            assertThat(Http.send(HttpRequest.newBuilder(URI.create(base + "/api/channels/" + first))
                    .header("Authorization", "Bearer embedded-admin")).json().path("highestVoucher").path("amount")
                    .asText()).isEqualTo("300");
        }
    }
}
