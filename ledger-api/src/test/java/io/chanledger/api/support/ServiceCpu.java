package io.chanledger.api.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The CPU time the service's processes have used, read from {@code /proc/PID/stat}: benches report
 * it per operation next to their wall-clock figures, since on a shared machine it hardly depends on
 * who else uses the cores.
 */
public final class ServiceCpu {

    /** What the JIT compiler threads' names start with ("C2 CompilerThread0", cut at 15 characters). */
    public static final String COMPILERS = "CompilerThre";
    /** Ends the name of a thread group's entry in {@link #threadTicks} that holds its system ticks alone. */
    public static final String KERNEL_SUFFIX = " (kernel)";

    private final List<Path> stats;
    private final long ticksPerSecond;

    private ServiceCpu(List<Path> stats, long ticksPerSecond) {
        this.stats = stats;
        this.ticksPerSecond = ticksPerSecond;
    }

    /** {@code pids}: the service's process ids, space- or comma-separated; blank for none known. */
    public static ServiceCpu of(String pids, long ticksPerSecond) {
        List<Path> stats = pids == null || pids.isBlank() ? List.of()
                : List.of(pids.trim().split("[ ,]+")).stream().map(pid -> Path.of("/proc", pid, "stat")).toList();
        return new ServiceCpu(stats, ticksPerSecond);
    }

    /** Clock ticks of {@code /proc} as milliseconds. */
    public double ticksToMillis(long ticks) {
        return ticks * 1000.0 / ticksPerSecond;
    }

    public boolean known() {
        return !stats.isEmpty();
    }

    /** CPU milliseconds used so far (user and system, all processes); NaN when no process is known. */
    public double millis() {
        if (stats.isEmpty()) {
            return Double.NaN;
        }
        long ticks = 0;
        for (Path stat : stats) {
            ticks += ticks(stat);
        }
        return ticksToMillis(ticks);
    }

    /**
     * CPU milliseconds the JIT compiler threads of the service's processes alive now have used so
     * far; NaN when no process is known.
     */
    public double compilerMillis() {
        if (stats.isEmpty()) {
            return Double.NaN;
        }
        long ticks = 0;
        for (Path stat : stats) {
            try {
                ticks += threadTicks(stat).entrySet().stream().filter(group -> compilers(group.getKey()))
                        .mapToLong(Map.Entry::getValue).sum();
            } catch (IOException gone) {
                // the process ended
            }
        }
        return ticksToMillis(ticks);
    }

    /** User and system clock ticks of the service's threads alive now, by group, summed over its processes. */
    public Map<String, Long> threadTicks() {
        Map<String, Long> ticks = new TreeMap<>();
        for (Path stat : stats) {
            try {
                threadTicks(stat).forEach((group, t) -> ticks.merge(group, t, Long::sum));
            } catch (IOException gone) {
                // the process ended
            }
        }
        return ticks;
    }

    /**
     * User and system clock ticks of a process's threads alive now, by group: the thread's name
     * ({@code /proc/PID/task/TID/comm}, cut at 15 characters by the kernel) without a trailing
     * number. Each group's system ticks alone are there too, under its name and
     * {@link #KERNEL_SUFFIX}: what its threads spent in the kernel (sockets, waking each other),
     * which a Java profiler's samples do not show. {@code processStat} is the process's
     * {@code /proc/PID/stat}.
     */
    public static Map<String, Long> threadTicks(Path processStat) throws IOException {
        Map<String, Long> ticks = new TreeMap<>();
        try (var threads = Files.list(processStat.resolveSibling("task"))) {
            for (Path thread : threads.toList()) {
                try {
                    String group = Files.readString(thread.resolve("comm")).strip().replaceAll("[-#_ ]*\\d+$", "");
                    long[] userAndSystem = userAndSystemTicks(thread.resolve("stat"));
                    ticks.merge(group, userAndSystem[0] + userAndSystem[1], Long::sum);
                    ticks.merge(group + KERNEL_SUFFIX, userAndSystem[1], Long::sum);
                } catch (IOException gone) {
                    // the thread ended while it was read
                }
            }
        }
        return ticks;
    }

    /**
     * User and system clock ticks of the database server's processes alive now ({@code postgres} in
     * {@code /proc/PID/comm}), whoever started them, with those of their children that ended: a
     * connection's process that exits counts in the server's once the server has reaped it.
     */
    public static long postgresTicks() throws IOException {
        long ticks = 0;
        try (var processes = Files.list(Path.of("/proc"))) {
            for (Path process : processes.filter(p -> p.getFileName().toString().chars().allMatch(Character::isDigit))
                    .toList()) {
                try {
                    if (Files.readString(process.resolve("comm")).strip().equals("postgres")) {
                        ticks += ticks(process.resolve("stat"));
                    }
                } catch (IOException gone) {
                    // the process ended while it was read
                }
            }
        }
        return ticks;
    }

    /**
     * User and system clock ticks of this process's children that ended and were waited for (fields
     * 16 and 17 of {@code /proc/self/stat}): a command the bench ran to its end.
     */
    public static long endedChildrenTicks() throws IOException {
        String[] fields = fieldsAfterName(Path.of("/proc/self/stat"));
        return Long.parseLong(fields[13]) + Long.parseLong(fields[14]);
    }

    /** User and system clock ticks this process (the load generator) has used so far. */
    public static long loadGeneratorTicks() throws IOException {
        return ownTicks(Path.of("/proc/self/stat"));
    }

    /**
     * The machine's clock ticks so far, all cores: {@code [busy, all]}, from the first line of
     * {@code /proc/stat} (idle and waiting for the disk count as not busy).
     */
    public static long[] machineTicks() throws IOException {
        String[] fields = Files.readAllLines(Path.of("/proc/stat")).getFirst().trim().split("\\s+");
        long all = 0;
        for (int i = 1; i < Math.min(fields.length, 9); i++) {
            all += Long.parseLong(fields[i]);
        }
        long idle = Long.parseLong(fields[4]) + Long.parseLong(fields[5]);
        return new long[] {all - idle, all};
    }

    /** What reading a /proc file of a process that ended after the file was opened fails with (ESRCH). */
    private static final String PROCESS_ENDED_WHILE_READ = "No such process";

    /**
     * User and system clock ticks, the process's own and those of its children that ended (fields 14
     * to 17 of /proc/PID/stat): a database server's connections and workers are its children. A
     * process that has ended counts nothing here; its ticks are its parent's by then.
     */
    private static long ticks(Path stat) {
        try {
            String[] fields = fieldsAfterName(stat);
            return Long.parseLong(fields[11]) + Long.parseLong(fields[12]) + Long.parseLong(fields[13])
                    + Long.parseLong(fields[14]);
        } catch (java.nio.file.NoSuchFileException e) {
            return 0;
        } catch (IOException e) {
            if (PROCESS_ENDED_WHILE_READ.equals(e.getMessage())) {
                // opened before the process ended, read after: Linux answers ESRCH
                return 0;
            }
            throw new UncheckedIOException(e);
        }
    }

    /**
     * User and system clock ticks of one process or thread so far, its ended children's left out
     * (fields 14 and 15 of {@code /proc/PID/stat} or {@code /proc/PID/task/TID/stat}).
     */
    public static long ownTicks(Path stat) throws IOException {
        long[] userAndSystem = userAndSystemTicks(stat);
        return userAndSystem[0] + userAndSystem[1];
    }

    /** Whether {@code group}, an entry of {@link #threadTicks}, is the JIT compilers' (their kernel part left out). */
    public static boolean compilers(String group) {
        return group.contains(COMPILERS) && !group.endsWith(KERNEL_SUFFIX);
    }

    /** {@code [user, system]} clock ticks of one process or thread (fields 14 and 15 of its stat). */
    private static long[] userAndSystemTicks(Path stat) throws IOException {
        String[] fields = fieldsAfterName(stat);
        return new long[] {Long.parseLong(fields[11]), Long.parseLong(fields[12])};
    }

    /** The fields after "pid (comm) ": the name may hold spaces and parentheses, so it ends at the last ')'. */
    private static String[] fieldsAfterName(Path stat) throws IOException {
        String text = Files.readString(stat);
        return text.substring(text.lastIndexOf(')') + 2).split(" ");
    }
}
