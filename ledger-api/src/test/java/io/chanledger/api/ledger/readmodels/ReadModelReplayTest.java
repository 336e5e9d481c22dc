package io.chanledger.api.ledger.readmodels;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.chanledger.api.ledger.chain.ListenerLifecycle;
import io.chanledger.api.support.Http;
import io.chanledger.api.support.LedgerIntegrationTest;
import io.chanledger.api.support.TestKeys;
import io.chanledger.domain.channel.ChannelState;
import io.chanledger.domain.channel.ChannelStatus;
import io.chanledger.projections.provideraccount.ProviderAccount;
import io.chanledger.projections.provideraccount.ProviderAccountRepository;
import io.chanledger.projections.rebuild.ReadModelProgress;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.axonframework.common.transaction.TransactionManager;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventsourcing.eventstore.EventStore;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;

class ReadModelReplayTest extends LedgerIntegrationTest {

    private static final int CHANNELS = 10_000;

    @Autowired
    EventStore eventStore;
    @Autowired
    TransactionManager transactions;
    @Autowired
    ReadModelProgress progress;
    @Autowired
    ProviderAccountRepository accounts;
    @Autowired
    ListenerLifecycle listener;
    @Value("${chan.admin.token}")
    String adminToken;

    private Http.Reply admin(String method) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl() + "/api/admin/replay"))
                .header("Authorization", "Bearer " + adminToken);
        return Http.send(method.equals("POST") ? request.POST(HttpRequest.BodyPublishers.noBody()) : request.GET());
    }

    @Test
    void aReplayOfTenThousandChannelsRebuildsTheSameReadModels() throws Exception {
        String provider = TestKeys.wallet("replay-provider-" + UUID.randomUUID()).address();
        MixedHistories generator = new MixedHistories(20261121L, TestKeys.wallet("replay-consumer").address(), provider);
        long now = Instant.now().getEpochSecond();
        Map<String, List<Object>> histories = new LinkedHashMap<>();
        List<DomainEventMessage<?>> batch = new ArrayList<>();
        for (int i = 0; i < CHANNELS; i++) {
            String channelId = generator.channelId();
            List<Object> events = generator.history(channelId, now);
            histories.put(channelId, events);
            for (int sequence = 0; sequence < events.size(); sequence++) {
                batch.add(MixedHistories.message(channelId, sequence, events.get(sequence), Instant.now()));
            }
            if (batch.size() >= 5_000) {
                MixedHistories.append(eventStore, transactions, batch);
                batch.clear();
            }
        }
        MixedHistories.append(eventStore, transactions, batch);
        ReadModelsCaughtUp.await(progress, Duration.ofMinutes(3));
        assertAccountIsTheSumOf(histories, accounts.find(provider, 0).orElseThrow());

        // the chain listener records other tests' channels (expiries, closes) at any time; paused,
        // no channel event arrives during the replay and the two checksums are comparable
        listener.pause();
        JsonNode status;
        try {
            Http.Reply started = admin("POST");
            assertThat(started.status()).as(started.body()).isEqualTo(202);
            assertThat(admin("POST").status()).as("a second replay while one runs").isEqualTo(409);
            status = awaitFinished(Duration.ofMinutes(5));
        } finally {
            listener.resume();
        }

        assertThat(status.path("state").asText()).as(status.toString()).isEqualTo("COMPLETED");
        assertThat(status.path("comparable").asBoolean()).as(status.toString()).isTrue();
        assertThat(status.path("matches").asBoolean()).as(status.toString()).isTrue();
        JsonNode before = status.path("before").path("checksum");
        JsonNode after = status.path("after").path("checksum");
        assertThat(after.path("sha256").asText()).isEqualTo(before.path("sha256").asText()).hasSize(64);
        assertThat(after.path("tables").get(0).path("table").asText()).isEqualTo("channel_balance");
        assertThat(after.path("tables").get(0).path("rows").asLong()).isGreaterThanOrEqualTo(CHANNELS);
        assertThat(status.path("processed").asLong()).isGreaterThanOrEqualTo(status.path("before").path("position").asLong());
        assertAccountIsTheSumOf(histories, accounts.find(provider, 0).orElseThrow());

        assertTheProcessorFollowsTheStore(generator, now, histories, provider);
    }

    @Test
    void replaysOneAfterAnotherLeaveTheProcessorFollowingTheStore() throws Exception {
        String provider = TestKeys.wallet("replay-again-provider-" + UUID.randomUUID()).address();
        MixedHistories generator = new MixedHistories(20261124L, TestKeys.wallet("replay-again-consumer").address(), provider);
        long now = Instant.now().getEpochSecond();
        Map<String, List<Object>> histories = new LinkedHashMap<>();
        // each replay starts the instant the one before has restarted the processor: stopping it
        // again while it is still claiming its segment must not leave it without a worker
        listener.pause();
        try {
            for (int replay = 1; replay <= 4; replay++) {
                Http.Reply started = admin("POST");
                assertThat(started.status()).as("replay %d: %s", replay, started.body()).isEqualTo(202);
                JsonNode status = awaitFinished(Duration.ofMinutes(5));
                assertThat(status.path("state").asText()).as("replay %d: %s", replay, status).isEqualTo("COMPLETED");
                assertThat(status.path("matches").asBoolean()).as("replay %d: %s", replay, status).isTrue();
            }
        } finally {
            listener.resume();
        }

        assertTheProcessorFollowsTheStore(generator, now, histories, provider);
    }

    /** A channel recorded after the replay reaches the provider's account through the restarted processor. */
    private void assertTheProcessorFollowsTheStore(MixedHistories generator, long now,
                                                   Map<String, List<Object>> histories, String provider) {
        String channelId = generator.channelId();
        List<Object> events = generator.history(channelId, now);
        List<DomainEventMessage<?>> messages = new ArrayList<>();
        for (int sequence = 0; sequence < events.size(); sequence++) {
            messages.add(MixedHistories.message(channelId, sequence, events.get(sequence), Instant.now()));
        }
        MixedHistories.append(eventStore, transactions, messages);
        ReadModelsCaughtUp.await(progress, Duration.ofMinutes(1));
        histories.put(channelId, events);
        assertAccountIsTheSumOf(histories, accounts.find(provider, 0).orElseThrow());
    }

    @Test
    void replayIsAnAdminOperation() {
        Http.Reply anonymous = Http.send(HttpRequest.newBuilder(URI.create(baseUrl() + "/api/admin/replay"))
                .POST(HttpRequest.BodyPublishers.noBody()));

        assertThat(anonymous.status()).isEqualTo(401);
        assertThat(anonymous.json().path("code").asText()).isEqualTo("admin_unauthorized");
    }

    private JsonNode awaitFinished(Duration timeout) {
        return await("the replay finishes").atMost(timeout).pollInterval(Duration.ofMillis(100))
                .until(() -> admin("GET").json(), status -> status.path("state").asText().matches("COMPLETED|FAILED"));
    }

    private static void assertAccountIsTheSumOf(Map<String, List<Object>> histories, ProviderAccount account) {
        List<ChannelState> states = histories.values().stream().map(ChannelState::replay).toList();
        assertThat(account.channels()).isEqualTo(states.size());
        assertThat(account.openChannels()).isEqualTo(states.stream().filter(s -> s.status() == ChannelStatus.OPEN).count());
        assertThat(account.claimable()).isEqualTo(sum(states.stream().map(ChannelState::claimable).toList()));
        assertThat(account.claimed()).isEqualTo(sum(states.stream().map(ChannelState::claimed).toList()));
        assertThat(account.feesPaid()).isEqualTo(sum(states.stream().map(ChannelState::feesPaid).toList()));
    }

    private static BigInteger sum(List<BigInteger> values) {
        return values.stream().reduce(BigInteger.ZERO, BigInteger::add);
    }
}
