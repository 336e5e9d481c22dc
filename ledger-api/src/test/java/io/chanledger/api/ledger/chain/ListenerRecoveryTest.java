package io.chanledger.api.ledger.chain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.chanledger.api.support.LedgerIntegrationTest;
import io.chanledger.testsupport.DevnetAccounts;
import io.chanledger.chain.ingest.BatchCommitter;
import io.chanledger.chain.ingest.ChainListener;
import io.chanledger.chain.ingest.Checkpoint;
import io.chanledger.chain.ingest.ListenerSettings;
import io.chanledger.chain.ingest.ListenerStore;
import io.chanledger.chain.rpc.EthApi;
import java.math.BigInteger;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.common.jdbc.ConnectionProvider;
import org.axonframework.common.transaction.TransactionManager;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.web3j.crypto.Credentials;
import org.web3j.utils.Numeric;

/**
 * The application's listener is paused; listeners built here with the same id (so the same
 * checkpoint) stand in for it across restarts and crashes, then the application's listener
 * resumes from wherever they left the checkpoint.
 */
class ListenerRecoveryTest extends LedgerIntegrationTest {

    private static final Credentials CONSUMER = DevnetAccounts.anvil(3);
    private static final Credentials PROVIDER = DevnetAccounts.anvil(4);
    private static final BigInteger DEPOSIT = BigInteger.valueOf(2_000_000);

    @Autowired
    ListenerLifecycle applicationListener;
    @Autowired
    EthApi chainNode;
    @Autowired
    ListenerStore store;
    @Autowired
    CommandGateway commands;
    @Autowired
    TransactionManager transactions;
    @Autowired
    ConnectionProvider connections;

    private LedgerView ledger;

    @BeforeEach
    void pauseTheApplicationsListener() {
        ledger = new LedgerView(baseUrl());
        applicationListener.pause();
        devnet().approve(CONSUMER, devnet().channelAddress(), DEPOSIT.multiply(BigInteger.TEN));
    }

    @AfterEach
    void resumeIt() {
        applicationListener.resume();
    }

    private ChainListener listener(int maxBlockRange, BatchCommitter.Probe probe) {
        ListenerSettings app = applicationListener.listener().settings();
        ListenerSettings settings = new ListenerSettings(app.listenerId(), app.chainId(), app.contract(), app.finality(),
                maxBlockRange, app.startBlock(), app.maxLogsPerBatch());
        return new ChainListener(settings, chainNode, store, new BatchCommitter(commands, transactions, store, probe));
    }

    private Checkpoint checkpoint() {
        return store.checkpoint(applicationListener.listener().settings().listenerId()).orElseThrow();
    }

    private String open() {
        return devnet().open(CONSUMER, PROVIDER.getAddress(), DEPOSIT, 86_400).channelId();
    }

    private void claim(String channelId, long amount, long nonce) {
        devnet().claim(PROVIDER, channelId, BigInteger.valueOf(amount), BigInteger.valueOf(nonce),
                devnet().signVoucher(CONSUMER, channelId, BigInteger.valueOf(amount), BigInteger.valueOf(nonce)));
    }

    private void cooperativeClose(String channelId, long finalAmount) {
        BigInteger amount = BigInteger.valueOf(finalAmount);
        devnet().cooperativeClose(CONSUMER, channelId, amount, devnet().signCloseAuthorization(PROVIDER, channelId, amount));
    }

    private static long count(List<String> types, String type) {
        return Collections.frequency(types, type);
    }

    @Test
    void aListenerRestartedMidStreamLeavesNoGapAndNoDuplicate() {
        listener(1_000, BatchCommitter.Probe.NONE).poll();
        List<String> channels = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            String id = open();
            claim(id, 300_000, 1);
            claim(id, 500_000, 2);
            cooperativeClose(id, 800_000);
            channels.add(id);
        }
        long head = chainNode.blockNumber();

        ChainListener first = listener(2, BatchCommitter.Probe.NONE);
        first.poll(() -> first.stats().batches() < 4);
        long stoppedAt = checkpoint().blockNumber();
        assertThat(stoppedAt).as("stopped mid-stream").isLessThan(head);
        assertThat(ledger.channel(channels.getLast())).as("the last channel is not ingested yet").isNull();

        listener(3, BatchCommitter.Probe.NONE).poll();

        assertThat(checkpoint().blockNumber()).isGreaterThanOrEqualTo(head);
        for (String id : channels) {
            List<String> types = ledger.eventTypes(id);
            assertThat(types).as(id).containsExactly("ChannelOpened", "ChannelClaimed", "ChannelClaimed",
                    "ChannelClaimed", "ChannelClosed");
            JsonNode state = ledger.channel(id);
            assertThat(LedgerView.amount(state, "claimed")).isEqualTo(BigInteger.valueOf(800_000));
            assertThat(LedgerView.amount(state, "feesPaid")).isEqualTo(BigInteger.valueOf(6_000 + 4_000 + 6_000));
            assertThat(LedgerView.amount(state, "refund")).isEqualTo(BigInteger.valueOf(1_200_000));
        }
    }

    @Test
    void aCrashBetweenEventsAndCheckpointRollsBothBackAndLeavesNoTraceInTheAggregateCache() {
        String channel = open();
        listener(1_000, BatchCommitter.Probe.NONE).poll();
        assertThat(ledger.eventTypes(channel)).containsExactly("ChannelOpened");
        Checkpoint before = checkpoint();

        claim(channel, 500_000, 7);
        String later = open();
        for (BatchCommitter.Stage stage : BatchCommitter.Stage.values()) {
            List<Long> storedAtCrash = new ArrayList<>();
            ChainListener crashing = listener(1_000, (reached, range) -> {
                if (reached == stage) {
                    storedAtCrash.add(storedEvents(channel));
                    throw new IllegalStateException("crash at " + stage);
                }
            });
            assertThatThrownBy(crashing::poll).hasMessageContaining("crash at " + stage);
            // inside the doomed transaction the claim was applied: written by then, or still pending
            assertThat(storedAtCrash).containsExactly(stage == BatchCommitter.Stage.WRITTEN ? 2L : 1L);

            assertThat(checkpoint()).as("checkpoint after a crash at " + stage).isEqualTo(before);
            assertThat(ledger.eventTypes(channel)).as("events after a crash at " + stage).containsExactly("ChannelOpened");
            assertThat(ledger.channel(later)).isNull();
        }

        // The rolled-back claim of 500000 must not linger in a cached aggregate: a voucher below it is
        // still above everything the ledger holds, so it is accepted.
        String signature = Numeric.toHexString(devnet().signVoucher(CONSUMER, channel, BigInteger.valueOf(300_000),
                BigInteger.ONE));
        assertThat(ledger.postVoucher(channel, BigInteger.valueOf(300_000), BigInteger.ONE, signature).status())
                .isEqualTo(200);

        listener(1_000, BatchCommitter.Probe.NONE).poll();

        List<String> types = ledger.eventTypes(channel);
        assertThat(count(types, "ChannelOpened")).isOne();
        assertThat(count(types, "ChannelClaimed")).isOne();
        assertThat(types).containsExactly("ChannelOpened", "VoucherAccepted", "ChannelClaimed");
        assertThat(LedgerView.amount(ledger.channel(channel), "claimed")).isEqualTo(BigInteger.valueOf(500_000));
        assertThat(ledger.eventTypes(later)).containsExactly("ChannelOpened");
        assertThat(checkpoint().blockNumber()).isGreaterThan(before.blockNumber());
    }

    /** Events of a channel in the event store, as the current transaction sees them. */
    private long storedEvents(String channelId) {
        try (Connection connection = connections.getConnection();
             PreparedStatement count = connection.prepareStatement(
                     "SELECT count(*) FROM domain_event_entry WHERE aggregate_identifier = ?")) {
            count.setString(1, channelId);
            try (ResultSet rows = count.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
