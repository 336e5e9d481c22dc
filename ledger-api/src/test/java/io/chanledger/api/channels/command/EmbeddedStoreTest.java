package io.chanledger.api.channels.command;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.chanledger.api.LedgerApplication;
import io.chanledger.api.readmodels.ReadModelsCaughtUp;
import io.chanledger.api.support.Channels;
import io.chanledger.api.support.Http;
import io.chanledger.api.support.SecretsFile;
import io.chanledger.api.support.TestKeys;
import io.chanledger.api.wallet.WalletSigning;
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
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The default profile (README's run command) starts on the embedded file store: every migration
 * must run there too, and the ledger must work on it.
 */
class EmbeddedStoreTest {

    @Test
    void theDefaultProfileRunsTheLedgerOnAnEmbeddedFileStore(@TempDir Path dataDir) {
        DigestSigner consumer = TestKeys.wallet("consumer-1");
        DigestSigner provider = TestKeys.wallet("provider-1");
        String url = "jdbc:h2:file:" + dataDir.resolve("chan-ledger")
                + ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DEFAULT_NULL_ORDERING=HIGH";
        try (ConfigurableApplicationContext app = new SpringApplicationBuilder(LedgerApplication.class)
                .run("--server.port=0", "--spring.datasource.url=" + url)) {
            String base = "http://127.0.0.1:" + ((WebServerApplicationContext) app).getWebServer().getPort();
            String channelId = Channels.open(app.getBean(CommandGateway.class), consumer, provider,
                    BigInteger.valueOf(1_000_000), Instant.now().getEpochSecond() + 3_600);

            Http.Reply reply = Http.postJson(base + "/api/channels/" + channelId + "/vouchers",
                    Channels.voucherJson(consumer, channelId, 42, 1));

            assertThat(reply.status()).as(reply.body()).isEqualTo(200);
            // read as the consumer: the voucher is an off-chain figure, and this profile has no admin token
            Http.Reply read = Http.send(WalletSigning.signedGet(base, "/api/channels/" + channelId, consumer,
                    Instant.now().getEpochSecond()));
            assertThat(read.json().path("highestVoucher").path("amount").asText()).as(read.body()).isEqualTo("42");
            assertThat(Http.get(base + "/actuator/health").json().path("status").asText()).isEqualTo("UP");
        }
        assertThat(Files.exists(dataDir.resolve("chan-ledger.mv.db"))).isTrue();
    }

    @Test
    void aReplayOnTheEmbeddedStoreRebuildsTheSameReadModels(@TempDir Path dataDir) throws Exception {
        DigestSigner consumer = TestKeys.wallet("consumer-2");
        DigestSigner provider = TestKeys.wallet("provider-2");
        String url = "jdbc:h2:file:" + dataDir.resolve("chan-ledger")
                + ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DEFAULT_NULL_ORDERING=HIGH";
        // one row in memory: the rebuild writes rows while it folds and reads some back
        try (ConfigurableApplicationContext app = new SpringApplicationBuilder(LedgerApplication.class)
                .run("--server.port=0", "--spring.datasource.url=" + url,
                        SecretsFile.argument(dataDir, Map.of("chan.admin.token", "embedded-admin")),
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
            JsonNode status = Http.send(replay.GET()).json();
            for (int i = 0; i < 300 && !status.path("state").asText().matches("COMPLETED|FAILED"); i++) {
                Thread.sleep(100);
                status = Http.send(replay.GET()).json();
            }

            assertThat(status.path("state").asText()).as(status.toString()).isEqualTo("COMPLETED");
            assertThat(status.path("matches").asBoolean()).as(status.toString()).isTrue();
            assertThat(status.path("after").path("checksum").path("tables").get(0).path("rows").asLong()).isEqualTo(2);
            assertThat(Http.send(HttpRequest.newBuilder(URI.create(base + "/api/channels/" + first))
                    .header("Authorization", "Bearer embedded-admin")).json().path("highestVoucher").path("amount")
                    .asText()).isEqualTo("300");
        }
    }
}
