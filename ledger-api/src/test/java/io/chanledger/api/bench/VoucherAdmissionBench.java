package io.chanledger.api.bench;

import io.chanledger.api.support.Channels;
import io.chanledger.api.support.ClosedLoopLoad;
import io.chanledger.api.support.ServiceCpu;
import io.chanledger.api.support.TestKeys;
import io.chanledger.domain.eip712.DigestSigner;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

/**
 * Voucher admission benchmark (not a test): pre-signed vouchers over many channels, POSTed by
 * 1, 16 and 64 concurrent clients to a running service. Each client owns its own channels, so
 * every voucher is a fresh, acceptable one. Channels are seeded as ChannelOpened events straight
 * into the event store of the service's (fresh) database, as the chain listener would record them.
 *
 * <p>Usage: {@code VoucherAdmissionBench <baseUrls> <jdbcUrl> <user> <password> <levels> <vouchersPerLevel>
 * [<servicePids> <clockTicksPerSecond>]}; with the service's process ids (space-separated) each level
 * also reports the service's CPU time per voucher, after the warm-up, the read models' background
 * work included.
 * {@code baseUrls} may name several instances, comma-separated: each client then sends its
 * vouchers to them in turn (round-robin), so consecutive vouchers of one channel reach different
 * instances.
 */
public final class VoucherAdmissionBench {

    private static final DigestSigner CONSUMER = TestKeys.wallet("bench-consumer");
    private static final DigestSigner PROVIDER = TestKeys.wallet("bench-provider");
    private static final int CHANNELS = 1_024;
    /** The JIT compilers' share of the service's CPU in a warm-up round under which the JIT counts as settled. */
    private static final double SETTLED_COMPILER_SHARE = 0.05;
    /** Warm-up rounds at most. */
    private static final int MAX_WARM_UP_ROUNDS = 20;
    /**
     * Vouchers a warm-up round sends at a level at least (one client: {@code WARM_UP_LONE_MINIMUM}):
     * a few seconds, since the compilers work at their own pace, and a round of half a second never
     * saw their share fall under the settled one.
     */
    private static final int WARM_UP_MINIMUM = 10_000;
    private static final int WARM_UP_LONE_MINIMUM = 1_000;

    private final Map<String, Long> nonces = new HashMap<>();
    private final List<String> channels = new ArrayList<>();
    private final List<String> instances;
    /** Rows of the table printed after the measured runs: where each voucher's CPU and rows went. */
    private final List<String> details = new ArrayList<>();
    private String jdbcUrl;
    private String user;
    private String password;
    private final ServiceCpu serviceCpu;

    private VoucherAdmissionBench(String baseUrls, ServiceCpu serviceCpu) {
        this.instances = List.of(baseUrls.split(","));
        this.serviceCpu = serviceCpu;
    }

    public static void main(String[] args) throws Exception {
        VoucherAdmissionBench bench = new VoucherAdmissionBench(args[0],
                ServiceCpu.of(args.length > 6 ? args[6] : null, args.length > 7 ? Long.parseLong(args[7]) : 100));
        bench.seed(args[1], args[2], args[3]);
        int perLevel = Integer.parseInt(args[5]);
        List<Integer> levels = Arrays.stream(args[4].split(",")).map(String::trim).map(Integer::valueOf).toList();
        bench.warmUp(levels, perLevel);
        System.out.println("| clients | vouchers | accepted/s | p50 ms | p99 ms | errors | service CPU ms per voucher "
                + "| PostgreSQL CPU ms per voucher | load generator CPU ms per voucher | machine busy |");
        System.out.println("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        for (int clients : levels) {
            bench.run(clients, measured(clients, perLevel), true);
        }
        if (bench.serviceCpu.known()) {
            System.out.println();
            System.out.println("per voucher of each measured run: the service's threads (groups under 0.005 ms left out), "
                    + "the database's commits and rows (under 0.001 left out)");
            System.out.println("| clients | what | per voucher |");
            System.out.println("|---:|---|---:|");
            bench.details.forEach(System.out::println);
        }
    }

    /**
     * The bench database's committed transactions, and its tables' rows inserted, updated and
     * deleted, so far (the statistics the server publishes).
     */
    private Map<String, Long> tableRows() throws Exception {
        Map<String, Long> rows = new TreeMap<>();
        try (Connection db = DriverManager.getConnection(jdbcUrl, user, password);
             Statement statement = db.createStatement()) {
            try (ResultSet row = statement.executeQuery(
                    "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()")) {
                row.next();
                rows.put("database commits", row.getLong(1));
            }
            try (ResultSet row = statement.executeQuery(
                    "SELECT relname, n_tup_ins, n_tup_upd, n_tup_hot_upd, n_tup_del FROM pg_stat_user_tables")) {
                while (row.next()) {
                    rows.put(row.getString(1) + " rows inserted", row.getLong(2));
                    rows.put(row.getString(1) + " rows updated", row.getLong(3));
                    rows.put(row.getString(1) + " rows updated in place (HOT: no index touched)", row.getLong(4));
                    rows.put(row.getString(1) + " rows deleted", row.getLong(5));
                }
            }
        }
        return rows;
    }

    /** The vouchers a level's measured run sends: fewer at one client, whose vouchers come one at a time. */
    private static int measured(int clients, int perLevel) {
        return clients == 1 ? Math.max(500, perLevel / 10) : perLevel;
    }

    /**
     * Warm-up rounds, each a quarter of every level's vouchers at that level (at least
     * {@link #WARM_UP_MINIMUM}), until the JIT has settled: until the compiler threads took under
     * {@link #SETTLED_COMPILER_SHARE} of the service's CPU in a round, or for
     * {@link #MAX_WARM_UP_ROUNDS} rounds (once, when the service's CPU is not known). A single round
     * of a quarter of the vouchers at 16 clients left the compilers using more of the service's CPU
     * than the requests' threads in the measured run at 64 (measured in the voucher bench). Also
     * fills the connection pools and caches.
     */
    private void warmUp(List<Integer> levels, int perLevel) throws Exception {
        double compilerShare;
        int rounds = 0;
        long vouchers = 0;
        do {
            double cpuBefore = serviceCpu.millis();
            double compilersBefore = serviceCpu.compilerMillis();
            for (int clients : levels) {
                int count = Math.max(clients == 1 ? WARM_UP_LONE_MINIMUM : WARM_UP_MINIMUM, measured(clients, perLevel) / 4);
                run(clients, count, false);
                vouchers += count;
            }
            compilerShare = (serviceCpu.compilerMillis() - compilersBefore) / (serviceCpu.millis() - cpuBefore);
            rounds++;
        } while (serviceCpu.known() && compilerShare >= SETTLED_COMPILER_SHARE && rounds < MAX_WARM_UP_ROUNDS);
        System.out.printf("# warm-up: %d rounds, %d vouchers (a quarter of each level's at that level, or more); the JIT "
                + "compilers' share of the service's CPU in the last: %s%n", rounds, vouchers,
                Double.isNaN(compilerShare) ? "not measured" : "%.1f%%".formatted(compilerShare * 100));
    }

    private void seed(String jdbcUrl, String user, String password) throws Exception {
        this.jdbcUrl = jdbcUrl;
        this.user = user;
        this.password = password;
        String sql = "INSERT INTO domain_event_entry (event_identifier, aggregate_identifier, sequence_number, type,"
                + " time_stamp, payload_type, payload_revision, payload, meta_data) VALUES (?,?,0,'ChannelAggregate',?,"
                + "'io.chanledger.domain.channel.ChannelOpened',NULL,?,'{}')";
        long expiry = Instant.now().getEpochSecond() + 7 * 86_400;
        try (Connection db = DriverManager.getConnection(jdbcUrl, user, password);
             PreparedStatement insert = db.prepareStatement(sql)) {
            db.setAutoCommit(false);
            for (int i = 0; i < CHANNELS; i++) {
                String channelId = Channels.randomChannelId();
                channels.add(channelId);
                nonces.put(channelId, 0L);
                insert.setString(1, UUID.randomUUID().toString());
                insert.setString(2, channelId);
                insert.setString(3, Instant.now().toString());
                insert.setString(4, "{\"channelId\":\"" + channelId + "\",\"consumer\":\"" + CONSUMER.address()
                        + "\",\"provider\":\"" + PROVIDER.address() + "\",\"deposit\":\"1000000000000\",\"expiry\":"
                        + expiry + ",\"chainRef\":{\"blockNumber\":" + (i + 1) + ",\"blockHash\":\"0x" + "0".repeat(64)
                        + "\",\"txHash\":\"" + channelId + "\",\"logIndex\":0},\"provisional\":false,"
                        + "\"claimedAtOpen\":\"0\"}");
                insert.addBatch();
            }
            insert.executeBatch();
            db.commit();
        }
    }

    /** Client c sends vouchers for the channels c, c + clients, c + 2·clients … in turn. */
    private void run(int clients, int total, boolean report) throws Exception {
        List<List<String>> bodies = new ArrayList<>();
        List<List<String>> urls = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            bodies.add(new ArrayList<>());
            urls.add(new ArrayList<>());
        }
        for (int i = 0; i < total; i++) {
            int client = i % clients;
            List<String> mine = channelsOf(client, clients);
            String channelId = mine.get((i / clients) % mine.size());
            long nonce = nonces.merge(channelId, 1L, Long::sum);
            bodies.get(client).add(Channels.voucherJson(CONSUMER, channelId, nonce * 1_000, nonce));
            String instance = instances.get((client + urls.get(client).size()) % instances.size());
            urls.get(client).add(instance + "/api/channels/" + channelId + "/vouchers");
        }
        List<List<ClosedLoopLoad.Request>> requests = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            List<ClosedLoopLoad.Request> mine = new ArrayList<>();
            for (int k = 0; k < bodies.get(c).size(); k++) {
                mine.add(ClosedLoopLoad.post(urls.get(c).get(k), bodies.get(c).get(k)));
            }
            requests.add(mine);
        }
        double cpuBefore = serviceCpu.millis();
        Map<String, Long> threadsBefore = report ? serviceCpu.threadTicks() : Map.of();
        Map<String, Long> tablesBefore = report ? tableRows() : Map.of();
        long postgresBefore = ServiceCpu.postgresTicks();
        long loadGeneratorBefore = ServiceCpu.loadGeneratorTicks();
        long[] machineBefore = ServiceCpu.machineTicks();
        ClosedLoopLoad.Result result = ClosedLoopLoad.run(requests);
        long[] machine = ServiceCpu.machineTicks();
        long loadGenerator = ServiceCpu.loadGeneratorTicks() - loadGeneratorBefore;
        if (report) {
            // what the vouchers left to do in the background (the read models) counts too
            Thread.sleep(1_500);
            double cpuPerVoucher = (serviceCpu.millis() - cpuBefore) / total;
            double postgresPerVoucher = serviceCpu.ticksToMillis(ServiceCpu.postgresTicks() - postgresBefore) / total;
            double loadGeneratorPerVoucher = serviceCpu.ticksToMillis(loadGenerator) / total;
            double machineBusy = (double) (machine[0] - machineBefore[0]) / (machine[1] - machineBefore[1]);
            System.out.printf("| %d | %d | %.0f | %.2f | %.2f | %d | %.3f | %.3f | %.3f | %.0f%% |%n", clients,
                    result.requests(), result.perSecond(), result.p50Millis(), result.p99Millis(), result.errors(),
                    cpuPerVoucher, postgresPerVoucher, loadGeneratorPerVoucher, machineBusy * 100);
            Map<String, Long> threads = serviceCpu.threadTicks();
            threads.forEach((group, ticks) -> {
                double perVoucher = serviceCpu.ticksToMillis(ticks - threadsBefore.getOrDefault(group, 0L)) / total;
                if (perVoucher >= 0.005) {
                    details.add("| %d | service thread group %s | %.3f ms of CPU |".formatted(clients, group, perVoucher));
                }
            });
            // a database session that has gone idle publishes its statistics within ten seconds
            Thread.sleep(10_000);
            tableRows().forEach((counter, rows) -> {
                double perVoucher = (double) (rows - tablesBefore.getOrDefault(counter, 0L)) / total;
                if (perVoucher >= 0.001) {
                    details.add("| %d | %s | %.3f |".formatted(clients, counter, perVoucher));
                }
            });
        }
    }

    private List<String> channelsOf(int client, int clients) {
        List<String> mine = new ArrayList<>();
        for (int i = client; i < channels.size(); i += clients) {
            mine.add(channels.get(i));
        }
        return mine;
    }
}
