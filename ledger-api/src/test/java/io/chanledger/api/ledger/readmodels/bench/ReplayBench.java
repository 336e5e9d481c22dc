package io.chanledger.api.ledger.readmodels.bench;

import io.chanledger.api.LedgerApplication;
import io.chanledger.api.ledger.readmodels.MixedHistories;
import io.chanledger.projections.readmodel.ReadModels;
import io.chanledger.projections.rebuild.ReadModelProgress;
import io.chanledger.projections.rebuild.ReadModelReplay;
import io.chanledger.projections.rebuild.ReplayStatus;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.Random;
import org.axonframework.common.transaction.TransactionManager;
import org.axonframework.config.EventProcessingConfiguration;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventhandling.EventProcessor;
import org.axonframework.eventhandling.StreamingEventProcessor;
import org.axonframework.eventsourcing.eventstore.EventStore;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Replay benchmark (not a test): writes {@code events} channel events of mixed histories into a
 * fresh PostgreSQL database through the service's event store (the read models follow along),
 * then measures in the same run a bare JDBC reader streaming the same event rows, before (after
 * a pass not counted) and after a replay (reset and rebuild) of every read model; prints both
 * checksums and the heap.
 *
 * <p>Usage: {@code ReplayBench <jdbcUrl> <user> <password> <events> [--chan.read-models.batch-size=…] …};
 * arguments starting with {@code --} go to the service.
 */
public final class ReplayBench {

    private static final int ACTIVE_CHANNELS = 2_000;
    private static final int APPEND_BATCH = 10_000;

    public static void main(String[] args) throws Exception {
        String url = args[0];
        String user = args[1];
        String password = args[2];
        long events = Long.parseLong(args[3]);
        List<String> settings = new ArrayList<>(List.of("--spring.profiles.active=postgres",
                "--spring.datasource.url=" + url, "--spring.datasource.username=" + user,
                "--spring.datasource.password=" + password, "--logging.level.root=WARN",
                "--spring.main.banner-mode=off", "--logging.level.io.chanledger.api.ledger.readmodels=INFO",
                "--logging.level.io.chanledger.projections.rebuild=INFO"));
        // the replay is shared code: the marketplace runs it without a provider's key
        settings.add(0, "--chan.role=marketplace");
        for (int i = 4; i < args.length; i++) {
            settings.add(args[i]);
        }
        try (ConfigurableApplicationContext app = new SpringApplicationBuilder(LedgerApplication.class)
                .web(WebApplicationType.NONE).run(settings.toArray(String[]::new))) {
            new ReplayBench().run(app, url, user, password, events, settings.subList(8, settings.size()));
        }
        // some of Axon's scheduler threads outlive the context
        System.exit(0);
    }

    private void run(ConfigurableApplicationContext app, String url, String user, String password, long events,
                     List<String> tuning) throws Exception {
        ReadModelProgress progress = app.getBean(ReadModelProgress.class);
        // the processors catch up once everything is written: tailing a store that grows by a
        // million events on two cores, they fall behind the event store's cache and hold the heap
        Collection<EventProcessor> processors = app.getBean(EventProcessingConfiguration.class).eventProcessors().values();
        processors.forEach(EventProcessor::shutDown);
        long stored = progress.head();
        // a database kept from an earlier run of the same size is measured again as it is
        long written = stored == events ? 0
                : write(app.getBean(EventStore.class), app.getBean(TransactionManager.class), events);
        processors.forEach(EventProcessor::start);
        long head = progress.head();
        caughtUp(progress, head);
        awaitOtherProcessors(app, head);
        System.out.printf(Locale.ROOT, "events written: %,d (head %,d, kept from an earlier run: %,d); settings: %s%n",
                written, head, written == 0 ? head : 0,
                tuning.isEmpty() ? "defaults" : String.join(" ", tuning));

        // a pass that is not counted: the first one after the writes came out at as little as two
        // thirds of the later ones (code not compiled yet, cold caches), a baseline too easy to beat
        bareReader(url, user, password);
        double bare = bareReader(url, user, password);
        ReplayStatus status = replay(app);
        MemoryUsage heapAtEnd = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
        System.gc();
        MemoryUsage heapAfterGc = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
        double bareAgain = bareReader(url, user, password);
        // more replays in the same process, when asked: the first one runs code not compiled yet
        List<ReplayStatus> again = new ArrayList<>();
        for (int i = 1; i < Integer.parseInt(System.getenv().getOrDefault("BENCH_REPLAYS", "1")); i++) {
            again.add(replay(app));
        }

        double rate = status.eventsPerSecond();
        double bareMean = (bare + bareAgain) / 2;
        System.out.println();
        System.out.println("| measure | events/s | ratio to bare reader |");
        System.out.println("|---|---:|---:|");
        System.out.printf(Locale.ROOT, "| bare JDBC reader, same rows (mean of %,.0f and %,.0f) | %,.0f | 1.00 |%n",
                bare, bareAgain, bareMean);
        System.out.printf(Locale.ROOT, "| replay: reset and rebuild every read model | %,.0f | %.2f |%n", rate,
                rate / bareMean);
        for (int i = 0; i < again.size(); i++) {
            System.out.printf(Locale.ROOT, "| the same again in the same process (replay %d) | %,.0f | %.2f |%n", i + 2,
                    again.get(i).eventsPerSecond(), again.get(i).eventsPerSecond() / bareMean);
        }
        System.out.println();
        System.out.printf(Locale.ROOT, "replay of %,d events: rebuild %.1f s, whole admin operation (two checksums, processor"
                        + " stops and starts) %.1f s; heap used at the end %,d MiB (%,d MiB after a GC, max %,d MiB)%n",
                head, status.processed() / rate, Duration.between(status.startedAt(), status.finishedAt()).toMillis() / 1000.0,
                heapAtEnd.getUsed() >> 20, heapAfterGc.getUsed() >> 20, heapAtEnd.getMax() >> 20);
        System.out.println("checksum before replay: " + status.before().checksum());
        System.out.println("checksum after replay:  " + status.after().checksum());
        System.out.println(Boolean.TRUE.equals(status.matches()) ? "checksums match" : "CHECKSUMS DIFFER");
    }

    private static ReplayStatus replay(ConfigurableApplicationContext app) throws InterruptedException {
        ReadModelReplay replay = app.getBean(ReadModelReplay.class);
        replay.start().orElseThrow();
        ReplayStatus status = replay.status();
        while (status.state() != ReplayStatus.State.COMPLETED && status.state() != ReplayStatus.State.FAILED) {
            Thread.sleep(20);
            status = replay.status();
        }
        if (status.state() == ReplayStatus.State.FAILED) {
            throw new IllegalStateException("the replay failed: " + status.error());
        }
        if (!Boolean.TRUE.equals(status.matches())) {
            throw new IllegalStateException("the checksums before and after the replay differ");
        }
        return status;
    }

    /** Lets the other read models catch up first, so that they do not compete with the measurement. */
    private static void awaitOtherProcessors(ConfigurableApplicationContext app, long head) throws InterruptedException {
        for (EventProcessor processor : app.getBean(EventProcessingConfiguration.class).eventProcessors().values()) {
            if (processor instanceof StreamingEventProcessor streaming
                    && !processor.getName().equals(ReadModels.CHANNEL_PROCESSING_GROUP)) {
                while (streaming.processingStatus().values().stream()
                        .anyMatch(s -> s.getCurrentPosition().orElse(-1) < head)) {
                    Thread.sleep(50);
                }
            }
        }
    }

    /** Waits until the read models have applied every event up to {@code head}. */
    private static void caughtUp(ReadModelProgress progress, long head) throws InterruptedException {
        while (true) {
            OptionalLong position = progress.position();
            if (position.isPresent() && position.getAsLong() >= head) {
                return;
            }
            Thread.sleep(5);
        }
    }

    /** Rows per second of every event column, streamed in global index order by plain JDBC. */
    private static double bareReader(String url, String user, String password) throws Exception {
        try (Connection db = DriverManager.getConnection(url, user, password)) {
            db.setAutoCommit(false);
            long begin = System.nanoTime();
            long rows = 0;
            long bytes = 0;
            try (PreparedStatement query = db.prepareStatement("SELECT global_index, event_identifier,"
                    + " aggregate_identifier, sequence_number, type, time_stamp, payload_type, payload_revision,"
                    + " payload, meta_data FROM domain_event_entry ORDER BY global_index")) {
                query.setFetchSize(10_000);
                try (ResultSet result = query.executeQuery()) {
                    while (result.next()) {
                        rows += result.getLong(1) > 0 ? 1 : 0;
                        bytes += result.getString(2).length() + result.getString(3).length() + result.getLong(4)
                                + result.getString(5).length() + result.getString(6).length()
                                + result.getString(7).length() + result.getString(9).length()
                                + result.getString(10).length();
                    }
                }
            }
            db.commit();
            double seconds = (System.nanoTime() - begin) / 1e9;
            if (bytes == 0) {
                throw new IllegalStateException("nothing read");
            }
            return rows / seconds;
        }
    }

    /** Mixed histories of many channels, about {@value #ACTIVE_CHANNELS} of them active at a time. */
    private static long write(EventStore eventStore, TransactionManager transactions, long events) {
        Random random = new Random(42);
        MixedHistories histories = new MixedHistories(7, "0x" + "c1".repeat(20), "0x" + "b1".repeat(20));
        List<MixedHistories> providers = new ArrayList<>();
        for (int p = 0; p < 50; p++) {
            providers.add(new MixedHistories(100 + p, "0x" + String.format("%040x", 1_000 + p),
                    "0x" + String.format("%040x", 2_000 + p)));
        }
        long now = Instant.now().getEpochSecond();
        List<String> active = new ArrayList<>();
        List<List<Object>> pending = new ArrayList<>();
        List<Integer> next = new ArrayList<>();
        List<DomainEventMessage<?>> batch = new ArrayList<>(APPEND_BATCH);
        Instant at = Instant.now();
        long written = 0;
        while (written < events) {
            while (active.size() < ACTIVE_CHANNELS) {
                MixedHistories owner = providers.get(random.nextInt(providers.size()));
                String channelId = histories.channelId();
                active.add(channelId);
                pending.add(owner.history(channelId, now));
                next.add(0);
            }
            int pick = random.nextInt(active.size());
            int sequence = next.get(pick);
            batch.add(MixedHistories.message(active.get(pick), sequence, pending.get(pick).get(sequence),
                    at.plusNanos(written * 1_000)));
            written++;
            if (sequence + 1 == pending.get(pick).size()) {
                int last = active.size() - 1;
                active.set(pick, active.get(last));
                pending.set(pick, pending.get(last));
                next.set(pick, next.get(last));
                active.remove(last);
                pending.remove(last);
                next.remove(last);
            } else {
                next.set(pick, sequence + 1);
            }
            if (batch.size() == APPEND_BATCH) {
                MixedHistories.append(eventStore, transactions, batch);
                batch.clear();
            }
        }
        if (!batch.isEmpty()) {
            MixedHistories.append(eventStore, transactions, batch);
        }
        return written;
    }
}
