package io.chanledger.api.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import io.chanledger.api.LedgerApplication;
import io.chanledger.api.support.Channels;
import io.chanledger.api.support.Http;
import io.chanledger.api.support.TestKeys;
import io.chanledger.domain.eip712.DigestSigner;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
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
            assertThat(Http.get(base + "/api/channels/" + channelId).json().path("highestVoucher").path("amount").asText())
                    .isEqualTo("42");
            assertThat(Http.get(base + "/actuator/health").json().path("status").asText()).isEqualTo("UP");
        }
        assertThat(Files.exists(dataDir.resolve("chan-ledger.mv.db"))).isTrue();
    }
}
