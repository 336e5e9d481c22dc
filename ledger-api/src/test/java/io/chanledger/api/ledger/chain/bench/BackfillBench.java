package io.chanledger.api.ledger.chain.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chanledger.api.LedgerApplication;
import io.chanledger.api.support.TestDatabases;
import io.chanledger.testsupport.AnvilNode;
import io.chanledger.testsupport.Devnet;
import io.chanledger.chain.ingest.ChainListener;
import io.chanledger.chain.ingest.ListenerStats;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Chain backfill: channel traffic on a fresh devnet, then (1) the node's answers to the same
 * eth_getLogs ranges read by a bare HTTP client, and (2) the real application ingesting from
 * block 0 into a fresh PostgreSQL database through its listener. Prints a Markdown table.
 *
 * <p>Arguments: {@code --channels=10000 --range=100 --batch=<chan.listener.max-logs-per-batch> --bare-rounds=3}.
 */
public final class BackfillBench {

    private static final Duration INGEST_DEADLINE = Duration.ofMinutes(30);

    private BackfillBench() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options = options(args);
        int channels = Integer.parseInt(options.getOrDefault("channels", "10000"));
        int range = Integer.parseInt(options.getOrDefault("range", "100"));
        int bareRounds = Integer.parseInt(options.getOrDefault("bare-rounds", "3"));
        String batch = options.get("batch");

        try (AnvilNode node = AnvilNode.start("--base-fee", "0", "--no-priority-fee")) {
            Devnet devnet = Devnet.deploy(node);
            long generationStart = System.nanoTime();
            new ChannelTraffic(devnet).run(channels);
            long generated = System.nanoTime() - generationStart;
            long head = devnet.web3j().ethBlockNumber().send().getBlockNumber().longValueExact();
            System.out.printf(Locale.ROOT, "generated %,d channels in %d blocks in %.1f s%n", channels, head,
                    generated / 1e9);

            List<Run> bareRuns = new ArrayList<>();
            long bareLogs = 0;
            for (int round = 0; round <= bareRounds; round++) {
                double anvilBefore = CpuClock.processSeconds(node.pid());
                double clientBefore = CpuClock.currentThreadSeconds();
                long start = System.nanoTime();
                bareLogs = bareGetLogs(node.rpcUrl(), devnet.channelAddress(), head, range);
                double seconds = (System.nanoTime() - start) / 1e9;
                double cpu = CpuClock.processSeconds(node.pid()) - anvilBefore
                        + CpuClock.currentThreadSeconds() - clientBefore;
                if (round > 0) {
                    bareRuns.add(new Run(bareLogs, seconds, cpu));
                }
            }
            Run bare = bareRuns.stream().sorted(java.util.Comparator.comparingDouble(Run::seconds))
                    .toList().get(bareRuns.size() / 2);
            System.out.printf(Locale.ROOT, "bare client rounds: %s%n", bareRuns);

            Ingest ingest = ingest(node, devnet, head, range, batch);
            Run listener = ingest.run();
            long expected = ChannelTraffic.expectedLogs(channels);
            System.out.printf(Locale.ROOT, "%n| path | logs | blocks | seconds | logs/s | CPU seconds | logs per CPU-second |%n"
                    + "|---|---:|---:|---:|---:|---:|---:|%n");
            System.out.printf(Locale.ROOT, "| bare eth_getLogs client, ranges of %d blocks (median of %d rounds) | %,d | %,d"
                            + " | %.2f | %,.0f | %.2f (anvil + client thread) | %,.0f |%n", range, bareRounds, bare.logs(),
                    head + 1, bare.seconds(), bare.rate(), bare.cpu(), bare.logs() / bare.cpu());
            System.out.printf(Locale.ROOT, "| listener into PostgreSQL, first batch to last commit | %,d | %,d | %.2f | %,.0f"
                            + " | %.2f (anvil + listener thread) | %,.0f |%n", listener.logs(), head + 1, listener.seconds(),
                    listener.rate(), listener.cpu(), listener.logs() / listener.cpu());
            System.out.printf(Locale.ROOT, "%nlistener / bare: %.3f by wall clock, %.3f per CPU-second; expected channel logs"
                            + " %,d; events stored %s; batches %d; RPC requests %d; wall time from application start %.1f s%n",
                    listener.rate() / bare.rate(), (listener.logs() / listener.cpu()) / (bare.logs() / bare.cpu()),
                    expected, ingest.eventsByType(), ingest.batches(), ingest.rpcRequests(), ingest.wallSeconds());
            // both read the contract's FeeUpdated too, which the listener records as a contract settings event
            if (listener.logs() != expected + 1 || bareLogs != expected + 1) {
                throw new IllegalStateException("expected " + expected + " channel logs (+1 FeeUpdated), bare client read "
                        + bareLogs + ", listener ingested " + listener.logs());
            }
        }
    }

    /** One measured pass: logs read, wall seconds, CPU seconds. */
    private record Run(long logs, double seconds, double cpu) {
        double rate() {
            return logs / seconds;
        }

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "%.2f s / %.2f CPU-s", seconds, cpu);
        }
    }

    private record Ingest(Run run, double wallSeconds, long batches, long rpcRequests, Map<String, Long> eventsByType) {
    }

    private static Ingest ingest(AnvilNode node, Devnet devnet, long head, int range, String batch) throws SQLException {
        String database = TestDatabases.recreate("chan_ledger_bench");
        double anvilBefore = CpuClock.processSeconds(node.pid());
        long start = System.nanoTime();
        // the listener is shared code: the marketplace runs it without a provider's key
        List<String> args = new ArrayList<>(List.of("--server.port=0", "--chan.role=marketplace",
                "--spring.datasource.url=" + database,
                "--spring.datasource.username=" + TestDatabases.USER,
                "--spring.datasource.password=" + TestDatabases.PASSWORD,
                "--logging.level.root=WARN", "--logging.level.io.chanledger=INFO",
                "--chan.chain.rpc-url=" + node.rpcUrl(), "--chan.chain.chain-id=" + devnet.chainId(),
                "--chan.chain.channel-contract=" + devnet.channelAddress(),
                "--chan.chain.usdc=" + devnet.usdcAddress(),
                "--chan.listener.finality=depth", "--chan.listener.depth=0",
                "--chan.listener.poll-interval=200ms", "--chan.listener.max-block-range=" + range,
                "--chan.listener.start-block=0"));
        if (batch != null) {
            args.add("--chan.listener.max-logs-per-batch=" + batch);
        }
        try (ConfigurableApplicationContext app = new SpringApplicationBuilder(LedgerApplication.class)
                .profiles("postgres").run(args.toArray(String[]::new))) {
            ListenerStats stats = app.getBean(ChainListener.class).stats();
            long deadline = System.nanoTime() + INGEST_DEADLINE.toNanos();
            while (stats.checkpointBlock() < head) {
                if (stats.state() == ListenerStats.State.HALTED || System.nanoTime() > deadline) {
                    throw new IllegalStateException("the listener stopped at block " + stats.checkpointBlock() + ": "
                            + stats.state() + " " + stats.haltDetail() + " " + stats.lastFailure());
                }
                sleep(50);
            }
            double wall = (System.nanoTime() - start) / 1e9;
            double cpu = CpuClock.threadSeconds("chain-listener") + CpuClock.processSeconds(node.pid()) - anvilBefore;
            return new Ingest(new Run(stats.logsIngested(), stats.ingestNanos() / 1e9, cpu), wall, stats.batches(),
                    stats.rpc().requests(), eventsByType(database));
        }
    }

    /** Reads every range like the listener does, but only parses the JSON and counts the logs. */
    private static long bareGetLogs(String rpcUrl, String contract, long head, int range) throws IOException,
            InterruptedException {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        ObjectMapper json = new ObjectMapper();
        long logs = 0;
        for (long from = 0; from <= head; from += range) {
            String body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"eth_getLogs\",\"params\":[{\"address\":\"" + contract
                    + "\",\"fromBlock\":\"0x" + Long.toHexString(from) + "\",\"toBlock\":\"0x"
                    + Long.toHexString(Math.min(head, from + range - 1)) + "\"}]}";
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(rpcUrl))
                    .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                    HttpResponse.BodyHandlers.ofString());
            JsonNode result = json.readTree(response.body()).path("result");
            if (!result.isArray()) {
                throw new IllegalStateException("eth_getLogs failed: " + response.body());
            }
            logs += result.size();
        }
        return logs;
    }

    private static Map<String, Long> eventsByType(String database) throws SQLException {
        Map<String, Long> counts = new LinkedHashMap<>();
        try (Connection connection = DriverManager.getConnection(database, TestDatabases.USER, TestDatabases.PASSWORD);
             Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT payload_type, count(*) FROM domain_event_entry"
                     + " GROUP BY payload_type ORDER BY payload_type")) {
            while (rows.next()) {
                String type = rows.getString(1);
                counts.put(type.substring(type.lastIndexOf('.') + 1), rows.getLong(2));
            }
        }
        return counts;
    }

    private static Map<String, String> options(String[] args) {
        Map<String, String> options = new LinkedHashMap<>();
        Arrays.stream(args).filter(a -> a.startsWith("--") && a.contains("="))
                .forEach(a -> options.put(a.substring(2, a.indexOf('=')), a.substring(a.indexOf('=') + 1)));
        return options;
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

}
