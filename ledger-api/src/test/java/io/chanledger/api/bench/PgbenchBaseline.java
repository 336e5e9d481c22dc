package io.chanledger.api.bench;

import io.chanledger.api.support.ServiceCpu;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The voucher bench's baseline (not a test): pgbench at each level of concurrency, measured with
 * the readers the vouchers are measured with ({@link ServiceCpu}), so that both sides show what an
 * operation costs the whole machine: PostgreSQL's CPU and pgbench's own per commit, and how busy
 * the cores were.
 *
 * <p>Usage: {@code PgbenchBaseline <levels> <clock ticks per second> <pgbench arguments…>}; the
 * levels' {@code -c} and {@code -j} are added to the arguments, which name everything else (the
 * server, the script, the duration, the database).
 */
public final class PgbenchBaseline {

    private static final Pattern TPS = Pattern.compile("(?m)^tps = ([0-9.]+)");
    private static final Pattern COMMITS = Pattern.compile("(?m)^number of transactions actually processed: (\\d+)");

    private PgbenchBaseline() {
    }

    public static void main(String[] args) throws Exception {
        ServiceCpu ticks = ServiceCpu.of(null, Long.parseLong(args[1]));
        List<String> pgbench = List.of(args).subList(2, args.length);
        System.out.println("| clients | commits/s | PostgreSQL CPU ms per commit | pgbench CPU ms per commit | machine busy |");
        System.out.println("|---:|---:|---:|---:|---:|");
        for (String level : args[0].split(",")) {
            int clients = Integer.parseInt(level.trim());
            List<String> command = new ArrayList<>(List.of("pgbench", "-c", String.valueOf(clients),
                    "-j", String.valueOf(clients < 2 ? 1 : 2)));
            command.addAll(pgbench);
            long postgresBefore = ServiceCpu.postgresTicks();
            long pgbenchBefore = ServiceCpu.endedChildrenTicks();
            long[] machineBefore = ServiceCpu.machineTicks();
            String report = run(command);
            // until the server has reaped the connections' processes, whose time is then its own
            Thread.sleep(1_000);
            long[] machine = ServiceCpu.machineTicks();
            long commits = Long.parseLong(find(COMMITS, report));
            System.out.printf("| %d | %.0f | %.3f | %.3f | %.0f%% |%n", clients, Double.parseDouble(find(TPS, report)),
                    ticks.ticksToMillis(ServiceCpu.postgresTicks() - postgresBefore) / commits,
                    ticks.ticksToMillis(ServiceCpu.endedChildrenTicks() - pgbenchBefore) / commits,
                    100.0 * (machine[0] - machineBefore[0]) / (machine[1] - machineBefore[1]));
        }
    }

    /** Runs pgbench to its end (its own time then counts as this process's ended children's); returns its report. */
    private static String run(List<String> command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String report = new String(process.getInputStream().readAllBytes());
        if (process.waitFor() != 0) {
            throw new IllegalStateException("pgbench failed: " + command + "\n" + report);
        }
        return report;
    }

    private static String find(Pattern pattern, String report) {
        Matcher found = pattern.matcher(report);
        if (!found.find()) {
            throw new IllegalStateException("not in pgbench's report (" + pattern + "):\n" + report);
        }
        return found.group(1);
    }
}
