package io.chanledger.api.ledger.channels.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.chanledger.api.LedgerApplication;
import io.chanledger.api.support.AdminReads;
import io.chanledger.api.support.Channels;
import io.chanledger.api.support.Http;
import io.chanledger.api.support.TestDatabases;
import io.chanledger.api.support.TestKeys;
import io.chanledger.domain.eip712.DigestSigner;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventsourcing.eventstore.EventStore;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

/** Whatever the ledger acknowledged survives the application going away. */
class LedgerRestartTest {

    private static final DigestSigner CONSUMER = TestKeys.wallet("consumer-1");
    private static final DigestSigner PROVIDER = TestKeys.wallet("provider-1");

    private static ConfigurableApplicationContext start(String databaseUrl) {
        return new SpringApplicationBuilder(LedgerApplication.class)
                .profiles("postgres", "test")
                .run("--server.port=0", "--spring.datasource.url=" + databaseUrl,
                        "--spring.datasource.username=" + TestDatabases.USER,
                        "--spring.datasource.password=" + TestDatabases.PASSWORD,
                        // one channel, many events: snapshots must be taken and read back as well
                        "--chan.ledger.snapshots.channel=5");
    }

    private static String base(ConfigurableApplicationContext context) {
        return "http://127.0.0.1:" + ((WebServerApplicationContext) context).getWebServer().getPort();
    }

    @Test
    void acceptedVouchersSurviveARestartAndTheNextVoucherIsJudgedAgainstThem() {
        String databaseUrl = TestDatabases.recreate("chan_ledger_restart_test");
        String channelId;
        try (ConfigurableApplicationContext first = start(databaseUrl)) {
            channelId = Channels.open(first.getBean(CommandGateway.class), CONSUMER, PROVIDER,
                    BigInteger.valueOf(5_000_000), Instant.now().getEpochSecond() + 86_400);
            for (int nonce = 1; nonce <= 12; nonce++) {
                Http.Reply reply = Http.postJson(base(first) + "/api/channels/" + channelId + "/vouchers",
                        Channels.voucherJson(CONSUMER, channelId, nonce * 10_000L, nonce));
                assertThat(reply.status()).as(reply.body()).isEqualTo(200);
            }
            // taken after the commits, off the vouchers' path
            JdbcTemplate jdbc = first.getBean(JdbcTemplate.class);
            await("a snapshot of the channel").atMost(Duration.ofSeconds(10)).until(() -> jdbc.queryForObject(
                    "SELECT count(*) FROM snapshot_event_entry WHERE aggregate_identifier = ?", Long.class, channelId) > 0);
        }

        try (ConfigurableApplicationContext second = start(databaseUrl)) {
            // the channel is loaded from its latest snapshot, which reads back as the aggregate
            DomainEventMessage<?> first = second.getBean(EventStore.class).readEvents(channelId).asStream()
                    .findFirst().orElseThrow();
            assertThat(first.getPayloadType().getSimpleName()).isEqualTo("ChannelAggregate");
            assertThat(first.getPayload()).isNotNull();
            String url = base(second) + "/api/channels/" + channelId;
            var state = AdminReads.get(url).json();
            assertThat(state.path("voucherCount").asLong()).isEqualTo(12);
            assertThat(state.path("highestVoucher").path("amount").asText()).isEqualTo("120000");
            assertThat(AdminReads.get(url + "/events").json()).hasSize(13);

            Http.Reply stale = Http.postJson(url + "/vouchers", Channels.voucherJson(CONSUMER, channelId, 120_000, 13));
            assertThat(stale.status()).isEqualTo(409);
            assertThat(stale.json().path("code").asText()).isEqualTo("amount_not_increasing");

            Http.Reply resent = Http.postJson(url + "/vouchers", Channels.voucherJson(CONSUMER, channelId, 120_000, 12));
            assertThat(resent.status()).isEqualTo(200);
            assertThat(resent.json().path("duplicate").asBoolean()).isTrue();

            Http.Reply next = Http.postJson(url + "/vouchers", Channels.voucherJson(CONSUMER, channelId, 130_000, 13));
            assertThat(next.status()).as(next.body()).isEqualTo(200);
            assertThat(next.json().path("increment").asText()).isEqualTo("10000");
        }
    }
}
