package io.chanledger.api.ledger.chain.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;

/** CPU time of a process (from /proc, Linux) and of a thread of this JVM, in seconds. */
final class CpuClock {

    /** USER_HZ: the unit of /proc/<pid>/stat times on Linux. */
    private static final double TICKS_PER_SECOND = 100.0;

    private CpuClock() {
    }

    /** User plus system CPU seconds of a process so far; NaN where /proc is not available. */
    static double processSeconds(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            // after "pid (comm) ", field 0 is the state; utime and stime are fields 11 and 12
            return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) / TICKS_PER_SECOND;
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
    }

    /** CPU seconds of the live thread with this name, or NaN. */
    static double threadSeconds(String name) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals(name)).findFirst()
                .map(t -> threads.getThreadCpuTime(t.threadId()) / 1e9).orElse(Double.NaN);
    }

    static double currentThreadSeconds() {
        return ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() / 1e9;
    }
}
