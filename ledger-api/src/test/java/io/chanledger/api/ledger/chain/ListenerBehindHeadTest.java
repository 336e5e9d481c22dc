package io.chanledger.api.ledger.chain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.chanledger.api.support.AdminReads;
import io.chanledger.api.support.Http;
import io.chanledger.api.support.ProviderOnOwnChain;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A provider following a local devnet by its finalized block, as a provider started from the
 * distribution's example file does: anvil calls a block finalized only once 64 more blocks are
 * mined on top of it, and mines a block per transaction, so the ledger's view stays at the
 * genesis block while the head moves on. Every poll succeeds; the listener cannot advance.
 */
class ListenerBehindHeadTest {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static ProviderOnOwnChain provider;

    @BeforeAll
    static void start() {
        provider = ProviderOnOwnChain.start("chan_ledger_listener_behind", Map.of(
                "chan.listener.finality", "finalized",
                "chan.listener.lag.grace", "1s"));
    }

    @AfterAll
    static void stop() {
        provider.close();
    }

    @Test
    void aListenerWhoseFinalBlockStaysFarBehindTheHeadIsDownWithItsLagShownAndUpOnceItCatchesUp() {
        String base = provider.baseUrl();
        // an hour of chain time above the genesis block, which is all anvil has finalized
        provider.devnet.increaseTime(3_600);
        provider.devnet.mine();
        long head = provider.head();

        await("the listener to be reported DOWN").atMost(WAIT)
                .until(() -> Http.get(base + "/actuator/health").status() == 503);
        JsonNode open = Http.get(base + "/actuator/health").json();
        assertThat(open.path("status").asText()).isEqualTo("DOWN");
        assertThat(open.path("components").path("chainListener").path("status").asText()).isEqualTo("DOWN");
        assertThat(open.path("components").path("chainListener").has("details")).as("details are the admin's").isFalse();

        JsonNode listener = AdminReads.get(base + "/api/admin/health").json().path("components").path("chainListener");
        assertThat(listener.path("status").asText()).isEqualTo("DOWN");
        JsonNode details = listener.path("details");
        assertThat(details.path("reason").asText()).isEqualTo("BEHIND_HEAD");
        assertThat(details.path("checkpointBlock").asLong()).isZero();
        assertThat(details.path("finalizedBlock").asLong()).isZero();
        assertThat(details.path("headBlock").asLong()).isEqualTo(head);
        assertThat(details.path("blocksBehind").asLong()).isEqualTo(head);
        assertThat(details.path("secondsBehind").asLong()).isGreaterThanOrEqualTo(3_600);
        Instant since = Instant.parse(details.path("behindSince").asText());
        assertThat(since).isBefore(Instant.now());
        assertThat(details.path("detail").asText()).contains("block " + head, "finality finalized",
                "chan.listener.finality=depth");

        Http.Reply dashboard = AdminReads.get(base + "/api/provider/dashboard");
        assertThat(dashboard.status()).as(dashboard.body()).isEqualTo(200);
        JsonNode shown = dashboard.json().path("listener");
        assertThat(shown.path("status").asText()).isEqualTo("DOWN");
        assertThat(shown.path("reason").asText()).isEqualTo("BEHIND_HEAD");
        assertThat(shown.path("headBlock").asLong()).isEqualTo(head);
        assertThat(shown.path("blocksBehind").asLong()).isEqualTo(head);
        assertThat(shown.path("secondsBehind").asLong()).isGreaterThanOrEqualTo(3_600);
        assertThat(Instant.parse(shown.path("behindSince").asText())).isEqualTo(since);

        // 64 blocks further the jump is final: the view trails the head by anvil's 64 blocks of
        // finality only, within the limits
        provider.mine(70);
        long caughtUp = provider.head();
        await("the listener to be UP again").atMost(WAIT)
                .until(() -> Http.get(base + "/actuator/health").status() == 200);
        JsonNode following = AdminReads.get(base + "/api/admin/health").json().path("components").path("chainListener");
        assertThat(following.path("status").asText()).isEqualTo("UP");
        assertThat(following.path("details").path("checkpointBlock").asLong()).isGreaterThanOrEqualTo(caughtUp - 64);
        assertThat(following.path("details").has("behindSince")).isFalse();
        assertThat(AdminReads.get(base + "/api/provider/dashboard").json().path("listener").path("status").asText())
                .isEqualTo("UP");
    }
}
