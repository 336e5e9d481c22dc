package io.chanledger.api.bench;

import io.chanledger.api.eventstore.ServiceThreads;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

/**
 * Splits a JFR recording of the gateway bench's service (its execution samples) by what the
 * samples were doing, so that a thread group's CPU per request, which the bench reads from
 * {@code /proc}, can be divided among the code that spent it (not a test).
 *
 * <p>Each sample is given to the thread group of its thread (the HTTP handlers, the commit workers,
 * the read models' processors…) and to the owner of the code it was in: the first frame from the
 * top of its stack that is not the JDK's own, by its package (Axon, the JDBC driver, Jackson,
 * Tomcat…), so that a hash-map lookup is charged to whoever looked it up. The bench alternates
 * paid and unpaid runs; a second of the recording is paid when the commit workers or the
 * processors ran in it, unpaid when they did not and the handlers did, and the two kinds are
 * counted apart.
 *
 * <p>The stacks are read whole, as recorded ({@code -XX:FlightRecorderOptions:stackdepth=256}):
 * {@code jfr print} shows only the top five frames of each unless told {@code --stack-depth}.
 *
 * <p>Usage: {@code ProfileSplit <recording.jfr> [--owner=NAME] [Class.method …]}. The methods named
 * are steps of the work (such as {@code VoucherCommitBatcher.dispatchNested}): each sample is also
 * given to the innermost of them on its stack, or to none, and each group's samples are split among
 * them too, so that steps inside one another are not counted twice. With {@code --owner}, only the
 * samples of that owner's code are split among the steps (where Tomcat's own share of a group went,
 * say), their shares still of all the group's samples.
 */
public final class ProfileSplit {

    static final String HANDLERS = "the HTTP handlers";
    static final String COMMIT_WORKERS = "the commit workers";
    static final String PROCESSORS = "the read models' processors";

    /**
     * Thread groups, by the start of the thread's name; the first that matches (the service's own
     * threads named in {@link ServiceThreads}, Tomcat's virtual handlers and Axon's processors as those
     * libraries name them). The gateway bench names its rows by the threads' names in {@code /proc},
     * cut to 15 characters: the handlers are virtual threads there, so their row is their carriers'
     * ({@code ForkJoinPool-1-}).
     */
    private static final Map<String, String> GROUPS = ordered(
            "tomcat-handler", HANDLERS,
            ServiceThreads.COMMIT_WORKER_PREFIX, COMMIT_WORKERS,
            "EventProcessor", PROCESSORS,
            ServiceThreads.EVENT_STORE_READER, "the event store's reader",
            "http-nio", "Tomcat's poller and acceptor",
            ServiceThreads.SNAPSHOTTER, "the snapshotter");

    /** Owners of code, by package prefix; the first that matches. */
    private static final Map<String, String> OWNERS = ordered(
            "org.axonframework.", "Axon",
            "org.postgresql.", "the JDBC driver and pool",
            "com.zaxxer.hikari.", "the JDBC driver and pool",
            "org.springframework.jdbc.", "Spring's JDBC and transactions",
            "org.springframework.transaction.", "Spring's JDBC and transactions",
            "com.fasterxml.jackson.", "Jackson",
            "org.apache.catalina.", "Tomcat",
            "org.apache.coyote.", "Tomcat",
            "org.apache.tomcat.", "Tomcat",
            "org.springframework.web.", "Spring MVC",
            "org.springframework.http.", "Spring MVC",
            "io.micrometer.", "Micrometer",
            "org.bouncycastle.", "the signature and digests",
            "fr.acinq.", "the signature and digests",
            "io.chanledger.domain.eip712.", "the signature and digests",
            "com.knuddels.jtokkit.", "token counting",
            "io.chanledger.domain.", "the ledger's domain (the aggregate, its events)",
            "io.chanledger.projections.", "the read models",
            "io.chanledger.", "the service's own code",
            "org.springframework.", "Spring, other",
            "ch.qos.logback.", "logging",
            "org.slf4j.", "logging");

    static final String JDK_ALONE = "the JDK alone";
    static final String OTHER = "other libraries";
    static final String PAID = "paid";
    static final String UNPAID = "unpaid";

    private ProfileSplit() {
    }

    /** One execution sample: the second it was taken in, its thread group, its frames from the top. */
    record Sample(long second, String group, List<String> frames) {
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 1) {
            System.err.println("usage: ProfileSplit <recording.jfr> [--owner=NAME] [Class.method ...]");
            System.exit(2);
        }
        System.out.print(reportOf(args));
    }

    /** The report the command prints for its arguments: the recording, then {@code --owner=NAME} and steps. */
    static String reportOf(String... args) throws IOException {
        String owner = null;
        List<String> steps = new ArrayList<>();
        for (String arg : List.of(args).subList(1, args.length)) {
            if (arg.startsWith("--owner=")) {
                owner = arg.substring("--owner=".length());
            } else {
                steps.add(arg);
            }
        }
        return report(read(Path.of(args[0])), steps, owner);
    }

    static List<Sample> read(Path recording) throws IOException {
        List<Sample> samples = new ArrayList<>();
        try (RecordingFile file = new RecordingFile(recording)) {
            while (file.hasMoreEvents()) {
                RecordedEvent event = file.readEvent();
                if (!event.getEventType().getName().equals("jdk.ExecutionSample")) {
                    continue;
                }
                RecordedThread thread = event.getThread("sampledThread");
                RecordedStackTrace stack = event.getStackTrace();
                if (thread == null || stack == null) {
                    continue;
                }
                List<String> frames = new ArrayList<>(stack.getFrames().size());
                for (RecordedFrame frame : stack.getFrames()) {
                    frames.add(frame.getMethod().getType().getName() + "." + frame.getMethod().getName());
                }
                samples.add(new Sample(event.getStartTime().getEpochSecond(), groupOf(thread.getJavaName()), frames));
            }
        }
        return samples;
    }

    static String groupOf(String threadName) {
        if (threadName != null) {
            for (Map.Entry<String, String> group : GROUPS.entrySet()) {
                if (threadName.startsWith(group.getKey())) {
                    return group.getValue();
                }
            }
        }
        return "other threads";
    }

    /** The owner of the code a sample was in: that of its top frame outside the JDK. */
    static String ownerOf(List<String> frames) {
        for (String frame : frames) {
            if (isJdk(frame)) {
                continue;
            }
            for (Map.Entry<String, String> owner : OWNERS.entrySet()) {
                if (frame.startsWith(owner.getKey())) {
                    return owner.getValue();
                }
            }
            return OTHER;
        }
        return JDK_ALONE;
    }

    private static boolean isJdk(String frame) {
        return frame.startsWith("java.") || frame.startsWith("javax.") || frame.startsWith("jdk.")
                || frame.startsWith("sun.") || frame.startsWith("com.sun.");
    }

    /**
     * Paid or unpaid, by second: paid where the commit workers or the processors have at least
     * three samples, unpaid where they have none and the handlers at least eight; other seconds
     * (start-up, the turn between runs) are left out.
     */
    static Map<Long, String> kinds(List<Sample> samples) {
        Map<Long, int[]> counts = new HashMap<>();
        for (Sample sample : samples) {
            int[] count = counts.computeIfAbsent(sample.second(), s -> new int[2]);
            if (sample.group().equals(COMMIT_WORKERS) || sample.group().equals(PROCESSORS)) {
                count[0]++;
            } else if (sample.group().equals(HANDLERS)) {
                count[1]++;
            }
        }
        Map<Long, String> kinds = new HashMap<>();
        counts.forEach((second, count) -> {
            if (count[0] >= 3) {
                kinds.put(second, PAID);
            } else if (count[0] == 0 && count[1] >= 8) {
                kinds.put(second, UNPAID);
            }
        });
        return kinds;
    }

    static String report(List<Sample> samples, List<String> steps, String stepsOwner) {
        Map<Long, String> kinds = kinds(samples);
        // kind -> group -> owner (or step) -> samples
        Map<String, Map<String, Map<String, Integer>>> owners = new TreeMap<>();
        Map<String, Map<String, Map<String, Integer>>> stepCounts = new TreeMap<>();
        Map<String, Integer> seconds = new TreeMap<>();
        kinds.values().forEach(kind -> seconds.merge(kind, 1, Integer::sum));
        for (Sample sample : samples) {
            String kind = kinds.get(sample.second());
            if (kind == null) {
                continue;
            }
            String owner = ownerOf(sample.frames());
            owners.computeIfAbsent(kind, k -> new TreeMap<>()).computeIfAbsent(sample.group(), g -> new TreeMap<>())
                    .merge(owner, 1, Integer::sum);
            if (!steps.isEmpty() && (stepsOwner == null || stepsOwner.equals(owner))) {
                stepCounts.computeIfAbsent(kind, k -> new TreeMap<>()).computeIfAbsent(sample.group(), g -> new TreeMap<>())
                        .merge(stepOf(sample.frames(), steps), 1, Integer::sum);
            }
        }
        StringBuilder out = new StringBuilder();
        out.append("seconds of the recording: ").append(seconds.getOrDefault(PAID, 0)).append(" paid, ")
                .append(seconds.getOrDefault(UNPAID, 0)).append(" unpaid\n\n");
        out.append("| seconds | thread group | samples | owner of the code | share of the group's samples |\n");
        out.append("|---|---|---:|---|---:|\n");
        for (String kind : List.of(PAID, UNPAID)) {
            Map<String, Integer> groups = new TreeMap<>();
            owners.getOrDefault(kind, Map.of()).forEach((group, byOwner) ->
                    groups.put(group, byOwner.values().stream().mapToInt(Integer::intValue).sum()));
            groups.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed()).forEach(group -> {
                Map<String, Integer> byOwner = owners.get(kind).get(group.getKey());
                byOwner.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
                        .forEach(owner -> out.append(String.format("| %s | %s | %d | %s | %.1f%% |%n", kind,
                                group.getKey(), group.getValue(), owner.getKey(),
                                100.0 * owner.getValue() / group.getValue())));
                Map<String, Integer> byStep = stepCounts.getOrDefault(kind, Map.of()).getOrDefault(group.getKey(), Map.of());
                String of = stepsOwner == null ? "" : stepsOwner + ", ";
                for (String step : steps.isEmpty() ? List.<String>of() : withNone(steps)) {
                    int count = byStep.getOrDefault(step, 0);
                    if (count > 0) {
                        out.append(String.format("| %s | %s | %d | (%sstep: %s) | %.1f%% |%n", kind,
                                group.getKey(), group.getValue(), of, step, 100.0 * count / group.getValue()));
                    }
                }
            });
        }
        return out.toString();
    }

    static final String NO_STEP = "none of them";

    /**
     * The innermost of the steps on the stack ({@code Class.method}, the class by its simple or
     * full name, or a nested class's name after its {@code $}); {@link #NO_STEP} when none is.
     */
    static String stepOf(List<String> frames, List<String> steps) {
        for (String frame : frames) {
            for (String step : steps) {
                if (frame.equals(step) || frame.endsWith("." + step) || frame.endsWith("$" + step)) {
                    return step;
                }
            }
        }
        return NO_STEP;
    }

    private static List<String> withNone(List<String> steps) {
        List<String> all = new ArrayList<>(steps);
        all.add(NO_STEP);
        return all;
    }

    private static Map<String, String> ordered(String... pairs) {
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            map.put(pairs[i], pairs[i + 1]);
        }
        return map;
    }
}
