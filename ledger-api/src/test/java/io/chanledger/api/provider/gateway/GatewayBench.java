package io.chanledger.api.provider.gateway;

import io.chanledger.api.support.Channels;
import io.chanledger.api.support.ClosedLoopLoad;
import io.chanledger.api.support.ServiceCpu;
import io.chanledger.api.support.TestKeys;
import io.chanledger.domain.eip712.DigestSigner;
import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;

/**
 * Gateway benchmark (not a test): paid chat completions through a running gateway with the echo
 * backend, next to the same requests to the unpaid echo endpoint of the same process, at each
 * concurrency. Every client owns one channel (seeded as ChannelOpened events straight into the
 * event store, as the chain listener would record them) and sends vouchers pre-signed before the
 * clock starts: nonce n authorises n × the request's estimate, so each covers what was charged
 * before plus its own request. Unpaid and paid runs alternate twice per level; each figure is the
 * mean of its two runs.
 *
 * <p>With {@code BENCH_HTTP_UPSTREAM=true} the same for a flat-priced service of an HTTP upstream:
 * paid requests to the model {@code word-count} (its parameters as JSON in the user message) next
 * to the same parameters posted straight to the upstream, the unpaid word-count endpoint of the
 * same process on loopback.
 *
 * <p>Last (echo only), the database floor of a lone paid request, back to back and as a lone agent's
 * requests come, and, when the service's CPU is measured, the database's CPU for the rows paid
 * requests under load must make durable ({@link PaidRequestDatabaseFloor}).
 *
 * <p>Usage: {@code GatewayBench <baseUrl> <jdbcUrl> <user> <password> <providerAddress> <levels> <requestsPerClient>}
 */
public final class GatewayBench {

    private static final DigestSigner CONSUMER = TestKeys.wallet("gateway-bench-consumer");
    static final String BODY = "{\"model\":\"echo-1\",\"max_tokens\":16,\"messages\":[{\"role\":\"user\","
            + "\"content\":\"hello, what does a payment channel cost per request?\"}]}";
    static final String SERVICE_PARAMETERS = "{\"text\":\"hello, what does a payment channel cost per request?\"}";
    static final String SERVICE_BODY = "{\"model\":\"word-count\",\"messages\":[{\"role\":\"user\",\"content\":"
            + "\"" + SERVICE_PARAMETERS.replace("\"", "\\\"") + "\"}]}";
    /**
     * A bound on one request's estimate at the benchmark's prices (0.00375 / 0.015 per 1k tokens);
     * for the word-count service, its flat price (0.001).
     */
    private static final long PER_REQUEST = 1_000;
    private static final boolean HTTP_UPSTREAM = Boolean.parseBoolean(System.getenv("BENCH_HTTP_UPSTREAM"));
    /** Paid requests, and as many unpaid, at each level in a warm-up round: a few seconds at 16 clients. */
    private static final int WARM_UP_REQUESTS = 8_000;
    /** Warm-up rounds at most. */
    private static final int MAX_WARM_UP_ROUNDS = 20;
    /** The JIT compilers' share of the service's CPU in a paid warm-up round under which the JIT counts as settled. */
    private static final double SETTLED_COMPILER_SHARE = 0.05;

    private final String baseUrl;
    private final String provider;
    /** /proc/PID/stat of the service, to read its CPU time; null when not given. */
    private final Path serviceStat;
    private final long ticksPerSecond;
    private final String jdbcUrl;
    private final String user;
    private final String password;

    private GatewayBench(String baseUrl, String provider, String servicePid, long ticksPerSecond, String jdbcUrl,
                         String user, String password) {
        this.baseUrl = baseUrl;
        this.jdbcUrl = jdbcUrl;
        this.user = user;
        this.password = password;
        this.provider = provider;
        this.serviceStat = servicePid == null ? null : Path.of("/proc", servicePid, "stat");
        this.ticksPerSecond = ticksPerSecond;
    }

    /**
     * {@code cpuMillis}: the service's CPU time per request, its background work included (NaN when
     * unknown). {@code walFlushes}: the database's write-ahead log flushes per request (its
     * {@code pg_stat_wal.wal_sync}, the log writer's own included), each a wait for the disk that
     * no benchmark on a fast disk shows in its latency. {@code databaseCpuMillis}: the CPU time of
     * the database server's processes on this machine per request (NaN when the service's is not
     * measured): the part of a paid request's cost the service's own figure leaves out. A backend
     * that exits during the run takes its time with it, so this is a lower bound. {@code commits}:
     * the bench database's committed transactions per request, the read models' and the event
     * store reader's included. {@code threadCpuMillis}: the service's CPU time per request by
     * thread group (threads named alike but for a trailing number), user and kernel time.
     */
    record Run(double perSecond, double p50, double p99, long errors, double cpuMillis, double walFlushes,
               double databaseCpuMillis, double commits, Map<String, Double> threadCpuMillis) {
    }

    /**
     * Arguments: base URL, JDBC URL, user, password, provider address, levels, requests per
     * client, and optionally the service's process id and the clock ticks per second of
     * {@code /proc} (for the service's CPU time per request).
     */
    public static void main(String[] args) throws Exception {
        GatewayBench bench = new GatewayBench(args[0], args[4].toLowerCase(), args.length > 7 ? args[7] : null,
                args.length > 8 ? Long.parseLong(args[8]) : 100, args[1], args[2], args[3]);
        int perClient = Integer.parseInt(args[6]);
        String jdbc = args[1];
        List<Integer> levels = Arrays.stream(args[5].split(",")).map(String::trim).map(Integer::valueOf).toList();
        bench.warmUp(levels, jdbc, args[2], args[3]);
        System.out.println(HTTP_UPSTREAM ? "flat-priced word-count service (HTTP upstream on loopback): paid "
                + "through the gateway against the upstream called directly" : "echo chat completions: paid through "
                + "the gateway against the unpaid echo endpoint");
        System.out.println("| concurrent channels | unpaid " + (HTTP_UPSTREAM ? "upstream" : "echo")
                + " req/s | paid req/s | overhead (unpaid ÷ paid) "
                + "| unpaid p50 / p99 ms | paid p50 / p99 ms | service CPU ms per request, unpaid / paid "
                + "| WAL flushes per paid request | PostgreSQL CPU ms per paid request "
                + "| database commits per paid request | errors |");
        System.out.println("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        Map<Integer, List<Map<String, Double>>> threadsByLevel = new LinkedHashMap<>();
        for (int clients : levels) {
            List<Run> unpaid = new ArrayList<>();
            List<Run> paid = new ArrayList<>();
            for (int round = 0; round < 2; round++) {
                unpaid.add(bench.run(clients, null, perClient, false));
                paid.add(bench.run(clients, bench.seed(jdbc, args[2], args[3], clients), perClient, true));
            }
            double u = unpaid.stream().mapToDouble(Run::perSecond).average().orElse(0);
            double p = paid.stream().mapToDouble(Run::perSecond).average().orElse(0);
            System.out.printf("| %d | %.0f | %.0f | %.2f | %.2f / %.2f | %.2f / %.2f | %.3f / %.3f | %.2f | %.3f | %.2f "
                            + "| %d |%n",
                    clients, u, p, u / p, mean(unpaid, Run::p50), mean(unpaid, Run::p99), mean(paid, Run::p50),
                    mean(paid, Run::p99), mean(unpaid, Run::cpuMillis), mean(paid, Run::cpuMillis),
                    mean(paid, Run::walFlushes), mean(paid, Run::databaseCpuMillis), mean(paid, Run::commits),
                    unpaid.stream().mapToLong(Run::errors).sum() + paid.stream().mapToLong(Run::errors).sum());
            threadsByLevel.put(clients, List.of(meanByThread(unpaid), meanByThread(paid)));
        }
        if (bench.serviceStat != null) {
            // the JIT compiles the paid path's code long after a run's warm-up: its threads are shown
            // apart, so that what the request costs can be read without them
            System.out.println();
            System.out.println("service threads: CPU ms per request, user and kernel, and under (kernel) the"
                    + " kernel's part alone (mean of the runs; groups under 0.005 ms in both left out)");
            System.out.println("| concurrent channels | thread group | unpaid | paid |");
            System.out.println("|---:|---|---:|---:|");
            threadsByLevel.forEach((clients, runs) -> {
                Map<String, Double> unpaidThreads = runs.get(0);
                Map<String, Double> paidThreads = runs.get(1);
                Set<String> groups = new TreeSet<>(unpaidThreads.keySet());
                groups.addAll(paidThreads.keySet());
                for (String group : groups) {
                    double u = unpaidThreads.getOrDefault(group, 0.0);
                    double p = paidThreads.getOrDefault(group, 0.0);
                    if (u >= 0.005 || p >= 0.005) {
                        System.out.printf("| %d | %s | %.3f | %.3f |%n", clients, group, u, p);
                    }
                }
            });
        }
        if (!HTTP_UPSTREAM) {
            PaidRequestDatabaseFloor.print(jdbc, args[2], args[3],
                    bench.serviceStat == null ? 0 : bench.ticksPerSecond);
        }
    }

    /**
     * Warm-up rounds until the JIT has settled: each round a paid and an unpaid run at every level
     * the bench measures, as the measured runs come, until the compiler threads took under
     * {@link #SETTLED_COMPILER_SHARE} of the service's CPU in every paid run of a round, or for
     * {@link #MAX_WARM_UP_ROUNDS} rounds. A fixed warm-up left the compilers working through the
     * measured runs (a fifth to a third of the service's CPU per paid request), a
     * cost a service that has run for a while no longer pays; and a warm-up at another concurrency
     * than the measured one still left them 0.007–0.028 ms per paid request. Once
     * only, when the service's CPU is not measured.
     * Says how many rounds it took and the compilers' share in the last round's paid runs.
     */
    private void warmUp(List<Integer> levels, String jdbc, String user, String password) throws Exception {
        List<String> shares = new ArrayList<>();
        boolean settled;
        int rounds = 0;
        do {
            settled = true;
            shares.clear();
            for (int clients : levels) {
                int perClient = Math.max(1, WARM_UP_REQUESTS / clients);
                Run paid = run(clients, seed(jdbc, user, password, clients), perClient, true);
                run(clients, null, perClient, false);
                double compilers = paid.threadCpuMillis().entrySet().stream()
                        .filter(group -> ServiceCpu.compilers(group.getKey())).mapToDouble(Map.Entry::getValue)
                        .sum();
                double share = compilers / paid.cpuMillis();
                settled &= share < SETTLED_COMPILER_SHARE;
                shares.add(Double.isNaN(share) ? "not measured" : "%.1f%% at %d".formatted(share * 100, clients));
            }
            rounds++;
        } while (rounds < MAX_WARM_UP_ROUNDS && !settled && serviceStat != null);
        System.out.printf("# warm-up: %d rounds of %,d paid and %,d unpaid requests at each level; the JIT compilers' "
                + "share of the service's CPU in the last round's paid runs: %s%n", rounds, WARM_UP_REQUESTS,
                WARM_UP_REQUESTS, String.join(", ", shares));
    }

    /** CPU ms per request by thread group, the mean of the runs. */
    private static Map<String, Double> meanByThread(List<Run> runs) {
        Map<String, Double> threads = new TreeMap<>();
        runs.forEach(run -> run.threadCpuMillis().forEach((group, millis) ->
                threads.merge(group, millis / runs.size(), Double::sum)));
        return threads;
    }

    private static double mean(List<Run> runs, java.util.function.ToDoubleFunction<Run> figure) {
        return runs.stream().mapToDouble(figure).average().orElse(0);
    }

    /** Fresh channels to the provider, one per client. */
    private List<String> seed(String jdbcUrl, String user, String password, int count) throws Exception {
        String sql = "INSERT INTO domain_event_entry (event_identifier, aggregate_identifier, sequence_number, type,"
                + " time_stamp, payload_type, payload_revision, payload, meta_data) VALUES (?,?,0,'ChannelAggregate',?,"
                + "'io.chanledger.domain.channel.ChannelOpened',NULL,?,'{}')";
        long expiry = Instant.now().getEpochSecond() + 7 * 86_400;
        List<String> channels = new ArrayList<>();
        try (Connection db = DriverManager.getConnection(jdbcUrl, user, password);
             PreparedStatement insert = db.prepareStatement(sql)) {
            db.setAutoCommit(false);
            for (int i = 0; i < count; i++) {
                String channelId = Channels.randomChannelId();
                channels.add(channelId);
                insert.setString(1, UUID.randomUUID().toString());
                insert.setString(2, channelId);
                insert.setString(3, Instant.now().toString());
                insert.setString(4, "{\"channelId\":\"" + channelId + "\",\"consumer\":\"" + CONSUMER.address()
                        + "\",\"provider\":\"" + provider + "\",\"deposit\":\"1000000000000\",\"expiry\":" + expiry
                        + ",\"chainRef\":{\"blockNumber\":1,\"blockHash\":\"0x" + "0".repeat(64) + "\",\"txHash\":\""
                        + channelId + "\",\"logIndex\":0},\"provisional\":false,\"claimedAtOpen\":\"0\"}");
                insert.addBatch();
            }
            insert.executeBatch();
            db.commit();
        }
        return channels;
    }

    /** Each client sends {@code perClient} requests, paid on its own channel or unpaid when channels is null. */
    private Run run(int clients, List<String> channels, int perClient, boolean paid) throws Exception {
        List<List<ClosedLoopLoad.Request>> requests = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            List<ClosedLoopLoad.Request> mine = new ArrayList<>(perClient);
            for (int n = 1; n <= perClient; n++) {
                String unpaidPath = HTTP_UPSTREAM ? "/demo/word-count" : "/echo/v1/chat/completions";
                String body = !HTTP_UPSTREAM ? BODY : paid ? SERVICE_BODY : SERVICE_PARAMETERS;
                mine.add(paid
                        ? ClosedLoopLoad.post(baseUrl + "/v1/chat/completions", body, "X-CHAN-Voucher",
                                Channels.voucherJson(CONSUMER, channels.get(c), n * PER_REQUEST, n))
                        : ClosedLoopLoad.post(baseUrl + unpaidPath, body));
            }
            requests.add(mine);
        }
        long ticksBefore = serviceTicks();
        long flushesBefore = walFlushes();
        long commitsBefore = commits();
        long databaseTicksBefore = databaseTicks();
        Map<String, Long> threadTicksBefore = threadTicks();
        ClosedLoopLoad.Result result = ClosedLoopLoad.run(requests);
        // what the requests left to do in the background (the read models) counts too; the database
        // publishes its statistics within a second
        Thread.sleep(1_500);
        double requestCount = (double) clients * perClient;
        double cpuMillis = serviceStat == null ? Double.NaN
                : (serviceTicks() - ticksBefore) * 1000.0 / ticksPerSecond / requestCount;
        double databaseCpuMillis = serviceStat == null ? Double.NaN
                : (databaseTicks() - databaseTicksBefore) * 1000.0 / ticksPerSecond / requestCount;
        Map<String, Double> threadCpuMillis = new TreeMap<>();
        threadTicks().forEach((group, ticks) -> threadCpuMillis.put(group,
                (ticks - threadTicksBefore.getOrDefault(group, 0L)) * 1000.0 / ticksPerSecond / requestCount));
        return new Run(result.perSecond(), result.p50Millis(), result.p99Millis(), result.errors(), cpuMillis,
                (walFlushes() - flushesBefore) / requestCount, databaseCpuMillis,
                (commits() - commitsBefore) / requestCount, threadCpuMillis);
    }

    /** User and system clock ticks of the service's threads alive now, by group ({@link ServiceCpu#threadTicks}). */
    private Map<String, Long> threadTicks() throws IOException {
        return serviceStat == null ? new TreeMap<>() : ServiceCpu.threadTicks(serviceStat);
    }

    /** Transactions the bench database has committed so far (the statistics lag by up to a second). */
    private long commits() throws SQLException {
        try (Connection db = DriverManager.getConnection(jdbcUrl, user, password);
             ResultSet row = db.createStatement().executeQuery(
                     "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()")) {
            return row.next() ? row.getLong(1) : 0;
        }
    }

    /**
     * User and system clock ticks of the database server's processes alive now ({@code postgres}
     * in {@code /proc/PID/comm}); 0 when the service's CPU is not measured here.
     */
    private long databaseTicks() throws IOException {
        return serviceStat == null ? 0 : ServiceCpu.postgresTicks();
    }

    /** The write-ahead log flushes of the database server so far (PostgreSQL 14 and later). */
    private long walFlushes() throws SQLException {
        try (Connection db = DriverManager.getConnection(jdbcUrl, user, password);
             ResultSet row = db.createStatement().executeQuery("SELECT wal_sync FROM pg_stat_wal")) {
            return row.next() ? row.getLong(1) : 0;
        }
    }

    /** User and system clock ticks the service has used so far (fields 14 and 15 of /proc/PID/stat). */
    private long serviceTicks() throws IOException {
        if (serviceStat == null) {
            return 0;
        }
        return ServiceCpu.ownTicks(serviceStat);
    }
}
