package io.chanledger.api.ledger.channels.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.chanledger.api.eventstore.ChannelCacheGuard;
import io.chanledger.api.eventstore.CommitFlush;
import io.chanledger.api.eventstore.EventStoreOfItsOwn;
import io.chanledger.api.config.LedgerProperties;
import io.chanledger.api.eventstore.LoneCommit;
import io.chanledger.api.support.LedgerIntegrationTest;
import io.chanledger.domain.channel.AcceptVoucher;
import io.chanledger.domain.channel.MeteredRequest;
import io.chanledger.domain.channel.RaiseHold;
import io.chanledger.domain.channel.SettleRequest;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.axonframework.commandhandling.CommandMessage;
import org.axonframework.commandhandling.SimpleCommandBus;
import org.axonframework.common.jdbc.ConnectionProvider;
import org.axonframework.common.transaction.TransactionManager;
import org.axonframework.eventhandling.GenericDomainEventMessage;
import org.axonframework.eventsourcing.eventstore.EmbeddedEventStore;
import org.axonframework.messaging.MessageHandler;
import org.axonframework.serialization.Serializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Which of the ledger's group commits wait for the disk. A batch of the gateway's admissions
 * alone (holds, told to no one until their settlement) commits without waiting; a batch with
 * anything else in it (a voucher of the ledger API, a settlement, a raised hold) waits, on
 * PostgreSQL. The batcher runs here with the application's transactions and connections, and a
 * command bus whose handlers see what the commit waits for: inside a batch's transaction, they
 * read its {@code synchronous_commit}; a command committed alone ({@link LoneCommit}, no
 * transaction) records an event in an event store of the test's own, and keeps beside it a row
 * holding the setting of the session that appends it.
 *
 * <p>And that batches are made of what callers queued: what is queued behind a busy worker is its
 * next batch, and of many callers' commands none is lost or decided twice.
 */
class HoldCommitFlushTest extends LedgerIntegrationTest {

    private static final String CHANNEL = "0x" + "ab".repeat(32);
    private static final String SIGNATURE = "0x" + "11".repeat(65);
    private static final String SIGNER = "0x" + "22".repeat(20);
    private static final MeteredRequest HOLD = new MeteredRequest(BigInteger.TEN, 0, SIGNER);
    /** Where the commands committed alone record their probes, beside the service's tables. */
    private static final String PROBE_SCHEMA = "hold_commit_flush_test";

    @Autowired
    private TransactionManager transactions;

    @Autowired
    private ChannelCacheGuard cacheGuard;

    @Autowired
    private CommitFlush commitFlush;

    @Autowired
    private DataSource dataSource;

    @Autowired
    private LedgerProperties ledger;

    @Autowired
    private ConnectionProvider connections;

    @Autowired
    private Serializer serializer;

    private final SimpleCommandBus commandBus = SimpleCommandBus.builder().build();
    private final CountDownLatch firstHandled = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);
    /** Each command handled, with the {@code synchronous_commit} of the transaction it was decided in. */
    private final Map<Object, String> settings = new ConcurrentHashMap<>();
    /** Each command handled, with the thread that decided it and how often it was decided. */
    private final Map<Object, Thread> threads = new ConcurrentHashMap<>();
    private final Map<Object, Integer> decisions = new ConcurrentHashMap<>();
    /** Each command committed alone, with the key of its row in the probe table. */
    private final Map<Object, String> probes = new ConcurrentHashMap<>();
    private VoucherCommitBatcher batcher;
    private EmbeddedEventStore probeEvents;
    private JdbcTemplate jdbc;

    @BeforeEach
    void startBatcher() {
        jdbc = new JdbcTemplate(dataSource);
        probeEvents = EventStoreOfItsOwn.create(jdbc, PROBE_SCHEMA, connections, transactions, serializer);
        jdbc.execute("CREATE TABLE IF NOT EXISTS " + PROBE_SCHEMA + ".commit_setting"
                + " (probe VARCHAR PRIMARY KEY, setting VARCHAR NOT NULL)");
        MessageHandler<CommandMessage<?>> setting = command -> {
            if (command.getPayload() instanceof AcceptVoucher voucher && voucher.nonce().equals(BigInteger.ZERO)) {
                firstHandled.countDown(); // holds its batch open until the next commands are queued
                release.await(10, TimeUnit.SECONDS);
            }
            threads.put(command.getPayload(), Thread.currentThread());
            decisions.merge(command.getPayload(), 1, Integer::sum);
            String probe = UUID.randomUUID().toString();
            if (LoneCommit.writeBesideEvents("INSERT INTO " + PROBE_SCHEMA + ".commit_setting (probe, setting)"
                    + " SELECT ?, current_setting('synchronous_commit')", probe)) {
                // committed alone: the row is written by the append of this event, or not at all
                probes.put(command.getPayload(), probe);
                probeEvents.publish(new GenericDomainEventMessage<>("Probe", probe, 0, "probe"));
            } else {
                settings.put(command.getPayload(), jdbc.queryForObject("SELECT current_setting('synchronous_commit')",
                        String.class));
            }
            return null;
        };
        commandBus.subscribe(AcceptVoucher.class.getName(), setting);
        commandBus.subscribe(SettleRequest.class.getName(), setting);
        commandBus.subscribe(RaiseHold.class.getName(), setting);
        batcher = new VoucherCommitBatcher(commandBus, transactions, cacheGuard, commitFlush, ledger,
                new SimpleMeterRegistry());
    }

    @AfterEach
    void stopBatcher() throws InterruptedException {
        release.countDown();
        batcher.stop();
        probeEvents.shutDown();
    }

    @Test
    void aHoldCommittedAloneDoesNotWaitForTheDisk() throws Exception {
        AcceptVoucher hold = admission(1, HOLD);
        assertThat(settingOf(hold)).isEqualTo("off");
        assertThat(probes).containsKey(hold);
    }

    @Test
    void everythingElseCommittedAloneWaitsForTheDisk() throws Exception {
        List<Object> commands = List.of(admission(1, null), settlement(),
                new RaiseHold(CHANNEL, BigInteger.ONE, BigInteger.TEN, 0));
        for (Object command : commands) {
            assertThat(settingOf(command)).as("%s", command).isEqualTo("on");
        }
        assertThat(probes).containsOnlyKeys(commands);
    }

    @Test
    void aHoldSharingItsBatchWithAPlainVoucherWaitsForTheDisk() throws Exception {
        AcceptVoucher first = admission(0, HOLD);
        AcceptVoucher hold = admission(1, HOLD);
        AcceptVoucher plain = admission(2, null);

        batchBehind(first, hold, plain);

        assertThat(settings).containsEntry(hold, "on").containsEntry(plain, "on");
        assertThat(threads.get(hold)).isSameAs(threads.get(first)).isSameAs(threads.get(plain));
        // the first was a batch of its own, committed alone
        assertThat(settingOfProbe(first)).isEqualTo("off");
    }

    @Test
    void aBatchOfHoldsAloneCommitsWithoutWaitingForTheDisk() throws Exception {
        AcceptVoucher first = admission(0, HOLD);
        AcceptVoucher hold = admission(1, HOLD);
        AcceptVoucher other = admission(2, HOLD);

        batchBehind(first, hold, other);

        assertThat(settings).containsEntry(hold, "off").containsEntry(other, "off");
        assertThat(threads.get(hold)).isSameAs(threads.get(other));
        assertThat(probes).containsOnlyKeys(first);
    }

    /**
     * Commits {@code first} alone, held open until {@code next} are queued behind it; on one channel,
     * one worker, they are taken as the next batch together.
     */
    private void batchBehind(AcceptVoucher first, AcceptVoucher... next) throws Exception {
        List<CompletableFuture<?>> replies = new ArrayList<>(List.of(batcher.submit(first)));
        assertThat(firstHandled.await(10, TimeUnit.SECONDS)).isTrue();
        for (AcceptVoucher voucher : next) {
            replies.add(batcher.submit(voucher));
        }
        release.countDown();
        CompletableFuture.allOf(replies.toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);
    }

    @Test
    void commandsFromManyCallersAreEachCommittedOnce() throws Exception {
        int callers = 8;
        int perCaller = 100;
        List<AcceptVoucher> sent = new ArrayList<>();
        List<CompletableFuture<?>> replies = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(callers)) {
            List<Future<List<CompletableFuture<?>>>> sending = new ArrayList<>();
            for (int caller = 0; caller < callers; caller++) {
                List<AcceptVoucher> mine = new ArrayList<>();
                for (int i = 0; i < perCaller; i++) {
                    // a channel each, so that the commands are spread over both workers
                    mine.add(new AcceptVoucher("0x" + "%064x".formatted(caller * perCaller + i + 1), BigInteger.TEN,
                            BigInteger.ONE, SIGNATURE, SIGNER, 0, HOLD));
                }
                sent.addAll(mine);
                sending.add(pool.submit(() -> mine.stream().<CompletableFuture<?>>map(batcher::submit).toList()));
            }
            for (Future<List<CompletableFuture<?>>> one : sending) {
                replies.addAll(one.get(30, TimeUnit.SECONDS));
            }
        }
        CompletableFuture.allOf(replies.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
        assertThat(decisions).hasSize(callers * perCaller);
        assertThat(sent).allSatisfy(voucher -> assertThat(decisions.get(voucher)).isEqualTo(1));
    }

    @Test
    void onlyAMeteredAdmissionIsAHold() {
        assertThat(VoucherCommitBatcher.isHold(admission(1, HOLD))).isTrue();
        assertThat(VoucherCommitBatcher.isHold(admission(1, null))).isFalse();
        assertThat(VoucherCommitBatcher.isHold(settlement())).isFalse();
    }

    private static AcceptVoucher admission(long nonce, MeteredRequest metering) {
        return new AcceptVoucher(CHANNEL, BigInteger.valueOf(100 + nonce), BigInteger.valueOf(nonce), SIGNATURE, SIGNER,
                0, metering);
    }

    private static SettleRequest settlement() {
        return new SettleRequest(CHANNEL, BigInteger.ONE, BigInteger.ONE, 0);
    }

    /** Commits {@code command} in a batch of its own; the setting its transaction had. */
    private String settingOf(Object command) throws Exception {
        CompletableFuture<?> reply = switch (command) {
            case AcceptVoucher voucher -> batcher.submit(voucher);
            case SettleRequest settle -> batcher.submit(settle);
            case RaiseHold raise -> batcher.submit(raise);
            default -> throw new IllegalArgumentException(command.toString());
        };
        reply.get(10, TimeUnit.SECONDS);
        return probes.containsKey(command) ? settingOfProbe(command) : settings.get(command);
    }

    /** The setting of the session that appended {@code command}'s events, committed alone. */
    private String settingOfProbe(Object command) {
        return jdbc.queryForObject("SELECT setting FROM " + PROBE_SCHEMA + ".commit_setting WHERE probe = ?",
                String.class, probes.get(command));
    }
}
