package io.chanledger.api.ledger.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.chanledger.api.ledger.chain.ListenerLifecycle;
import io.chanledger.api.support.LedgerIntegrationTest;
import io.chanledger.testsupport.Devnet;
import io.chanledger.testsupport.DevnetAccounts;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Reconciliation against the channel contract on the shared devnet, whose channels reach the
 * ledger through the chain listener. While the listener is paused the chain moves on without the
 * ledger, and reconcile reports exactly that; once it resumes and catches up, nothing is left.
 */
class ReconcileTest extends LedgerIntegrationTest {

    private static final BigInteger DEPOSIT = BigInteger.valueOf(5_000_000);
    private static final String CLOSED = "io.chanledger.domain.channel.ChannelClosed";
    private static final String CLAIMED = "io.chanledger.domain.channel.ChannelClaimed";
    private static final String OPENED = "io.chanledger.domain.channel.ChannelOpened";

    @Autowired
    ListenerLifecycle listener;
    @Autowired
    JdbcTemplate jdbc;
    @Value("${spring.datasource.url}")
    String databaseUrl;

    @AfterEach
    void listenerBackOn() {
        listener.resume();
    }

    private String open() {
        String channelId = devnet().fundAndOpen(DevnetAccounts.CONSUMER_1, DevnetAccounts.PROVIDER_1.getAddress(),
                DEPOSIT, 86_400).channelId();
        awaitRecorded(channelId, OPENED);
        return channelId;
    }

    private void claim(String channelId, long amount) {
        BigInteger value = BigInteger.valueOf(amount);
        devnet().claim(DevnetAccounts.PROVIDER_1, channelId, value, BigInteger.ONE,
                devnet().signVoucher(DevnetAccounts.CONSUMER_1, channelId, value, BigInteger.ONE));
    }

    private void cooperativeClose(String channelId, long finalAmount) {
        BigInteger value = BigInteger.valueOf(finalAmount);
        devnet().cooperativeClose(DevnetAccounts.CONSUMER_1, channelId, value,
                devnet().signCloseAuthorization(DevnetAccounts.PROVIDER_1, channelId, value));
    }

    /** Waits, with a deadline, for the listener to record an event of this type for the channel. */
    private void awaitRecorded(String channelId, String payloadType) {
        await("the listener records " + payloadType + " of " + channelId).atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> jdbc.queryForObject("SELECT COUNT(*) FROM domain_event_entry WHERE aggregate_identifier = ?"
                        + " AND payload_type = ?", Long.class, channelId, payloadType) > 0);
    }

    private record Outcome(int status, String report) {
    }

    private Outcome reconcile(List<String> channels) {
        Devnet devnet = devnet();
        List<String> args = new ArrayList<>(List.of("reconcile", "--spring.profiles.active=postgres",
                "--spring.datasource.url=" + databaseUrl, "--chan.chain.rpc-url=" + devnet.rpcUrl(),
                "--chan.chain.channel-contract=" + devnet.channelAddress(), "--chan.chain.usdc=" + devnet.usdcAddress()));
        channels.forEach(id -> args.addAll(List.of("--channel", id)));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int status = AuditCommand.run(args.toArray(String[]::new), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(new ByteArrayOutputStream()));
        return new Outcome(status, out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aChannelClosedWhileTheListenerWasStoppedIsReported() {
        String claimed = open();
        claim(claimed, 1_200_000);
        awaitRecorded(claimed, CLAIMED);
        String closing = open();
        List<String> mine = List.of(claimed, closing);

        Outcome clean = reconcile(mine);

        assertThat(clean.status()).as(clean.report()).isZero();
        assertThat(clean.report()).contains("2 channels compared").contains("OK: no mismatches");

        listener.pause();
        cooperativeClose(closing, 0);
        Outcome missed = reconcile(mine);

        assertThat(missed.status()).as(missed.report()).isEqualTo(1);
        assertThat(missed.report()).contains("channel " + closing + ": missing_on_chain")
                .contains("FAILED: 1 mismatches").doesNotContain("channel " + claimed);

        listener.resume();
        awaitRecorded(closing, CLOSED);
        Outcome caughtUp = reconcile(mine);

        assertThat(caughtUp.status()).as(caughtUp.report()).isZero();
        assertThat(caughtUp.report()).contains("1 channels compared");
    }

    @Test
    void aClaimTheLedgerHasNotSeenIsReported() {
        String channelId = open();
        listener.pause();
        claim(channelId, 700_000);

        Outcome outcome = reconcile(List.of(channelId));

        assertThat(outcome.status()).as(outcome.report()).isEqualTo(1);
        assertThat(outcome.report()).contains("claimed_differs").contains("balance_differs");
    }
}
