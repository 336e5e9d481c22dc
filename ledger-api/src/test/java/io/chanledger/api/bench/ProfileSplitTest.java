package io.chanledger.api.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.chanledger.api.bench.ProfileSplit.Sample;
import io.chanledger.api.eventstore.ServiceThreads;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The profile splitter gives each sample to its thread group and to the owner of its code. */
class ProfileSplitTest {

    private static final String WORKERS = ProfileSplit.COMMIT_WORKERS;
    private static final String HANDLERS = ProfileSplit.HANDLERS;

    @Test
    void aSampleBelongsToItsTopFrameOutsideTheJdk() {
        assertThat(ProfileSplit.ownerOf(List.of("java.util.HashMap.getNode", "java.util.HashMap.get",
                "org.axonframework.messaging.unitofwork.MessageProcessingContext.notifyHandlers",
                "io.chanledger.api.ledger.channels.command.VoucherCommitBatcher.commit"))).isEqualTo("Axon");
        assertThat(ProfileSplit.ownerOf(List.of("org.postgresql.core.v3.QueryExecutorImpl.sendBind",
                "org.axonframework.common.jdbc.JdbcUtils.executeBatch"))).isEqualTo("the JDBC driver and pool");
        // the signature's package is the domain's, but it is told apart from the aggregate's
        assertThat(ProfileSplit.ownerOf(List.of("io.chanledger.domain.eip712.Keccak.keccak256",
                "io.chanledger.domain.channel.SignedVoucher.verify"))).isEqualTo("the signature and digests");
        assertThat(ProfileSplit.ownerOf(List.of("io.chanledger.domain.channel.ChannelAggregate.handle")))
                .isEqualTo("the ledger's domain (the aggregate, its events)");
        assertThat(ProfileSplit.ownerOf(List.of("jdk.internal.vm.Continuation.yield", "java.lang.VirtualThread.park")))
                .isEqualTo(ProfileSplit.JDK_ALONE);
        assertThat(ProfileSplit.ownerOf(List.of("org.example.Unknown.run"))).isEqualTo(ProfileSplit.OTHER);
    }

    @Test
    void threadsAreGroupedByTheStartOfTheirNames() {
        assertThat(ProfileSplit.groupOf(ServiceThreads.COMMIT_WORKER_PREFIX + 1)).isEqualTo(WORKERS);
        assertThat(ProfileSplit.groupOf("tomcat-handler-1234")).isEqualTo(HANDLERS);
        assertThat(ProfileSplit.groupOf("EventProcessor[channel-balances]-0")).isEqualTo("the read models' processors");
        assertThat(ProfileSplit.groupOf("main")).isEqualTo("other threads");
        assertThat(ProfileSplit.groupOf(null)).isEqualTo("other threads");
    }

    @Test
    void aSecondIsPaidWhenTheCommitWorkersRanInIt() {
        List<Sample> samples = new ArrayList<>();
        add(samples, 10, WORKERS, 3, "io.chanledger.Work.run");
        add(samples, 10, HANDLERS, 20, "org.apache.coyote.Run.run");
        add(samples, 11, HANDLERS, 8, "org.apache.coyote.Run.run");
        add(samples, 12, HANDLERS, 7, "org.apache.coyote.Run.run"); // too few to tell
        add(samples, 13, WORKERS, 2, "io.chanledger.Work.run"); // neither: the end of a paid run
        add(samples, 13, HANDLERS, 30, "org.apache.coyote.Run.run");

        assertThat(ProfileSplit.kinds(samples)).isEqualTo(Map.of(10L, ProfileSplit.PAID, 11L, ProfileSplit.UNPAID));
    }

    @Test
    void theReportSharesEachGroupsSamplesAmongOwnersAndSteps() {
        List<Sample> samples = new ArrayList<>();
        add(samples, 1, WORKERS, 3, "org.axonframework.Bus.dispatch", "io.chanledger.Batcher.dispatchNested");
        add(samples, 1, WORKERS, 1, "org.postgresql.Driver.send", "io.chanledger.Batcher.commit");
        add(samples, 1, HANDLERS, 2, "org.apache.catalina.Valve.invoke");
        add(samples, 2, HANDLERS, 8, "org.springframework.web.Dispatcher.doDispatch");

        String report = ProfileSplit.report(samples, List.of("Batcher.dispatchNested"), null);

        assertThat(report).contains("1 paid, 1 unpaid")
                .contains("| paid | the commit workers | 4 | Axon | 75.0% |")
                .contains("| paid | the commit workers | 4 | the JDBC driver and pool | 25.0% |")
                .contains("| paid | the commit workers | 4 | (step: Batcher.dispatchNested) | 75.0% |")
                .contains("| paid | the commit workers | 4 | (step: none of them) | 25.0% |")
                .contains("| paid | the HTTP handlers | 2 | Tomcat | 100.0% |")
                .contains("| unpaid | the HTTP handlers | 8 | Spring MVC | 100.0% |");
    }

    @Test
    void aSampleGoesToTheInnermostStepOnItsStackSoThatNestedStepsAreNotCountedTwice() {
        List<String> stack = List.of("java.util.HashMap.get", "io.chanledger.domain.eip712.Keccak.keccak256",
                "io.chanledger.domain.channel.SignedVoucher.verify",
                "io.chanledger.api.ledger.channels.command.VoucherAdmission.admit");
        List<String> steps = List.of("VoucherAdmission.admit", "SignedVoucher.verify");

        assertThat(ProfileSplit.stepOf(stack, steps)).isEqualTo("SignedVoucher.verify");
        assertThat(ProfileSplit.stepOf(stack.subList(3, 4), steps)).isEqualTo("VoucherAdmission.admit");
        assertThat(ProfileSplit.stepOf(stack, List.of("Other.method"))).isEqualTo(ProfileSplit.NO_STEP);
    }

    @Test
    void anOwnerSplitsOnlyItsOwnSamplesAmongTheSteps() {
        List<Sample> samples = new ArrayList<>();
        add(samples, 1, WORKERS, 3, "io.chanledger.Work.run");
        add(samples, 1, HANDLERS, 3, "org.apache.coyote.Processor.parse", "org.apache.catalina.Valve.invoke");
        add(samples, 1, HANDLERS, 1, "org.apache.catalina.Valve.invoke");
        add(samples, 1, HANDLERS, 4, "org.springframework.web.Dispatcher.doDispatch", "org.apache.catalina.Valve.invoke");

        String report = ProfileSplit.report(samples, List.of("Valve.invoke", "Processor.parse"), "Tomcat");

        assertThat(report).contains("| paid | the HTTP handlers | 8 | (Tomcat, step: Processor.parse) | 37.5% |")
                .contains("| paid | the HTTP handlers | 8 | (Tomcat, step: Valve.invoke) | 12.5% |")
                .doesNotContain("step: none of them");
    }

    /** A real recording: a thread named as a commit worker, busy in this class, is found with its whole stack. */
    @Test
    void aRecordingIsReadWithItsStacksWhole(@TempDir Path directory) throws Exception {
        Path file = directory.resolve("split.jfr");
        AtomicBoolean busy = new AtomicBoolean(true);
        try (Recording recording = new Recording()) {
            recording.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(10));
            recording.start();
            Thread worker = Thread.ofPlatform().name(ServiceThreads.COMMIT_WORKER_PREFIX + 0).start(() -> spinAtDepth(busy, 20));
            Thread.sleep(1_500);
            busy.set(false);
            worker.join();
            recording.stop();
            recording.dump(file);
        }
        assertThat(Files.size(file)).isPositive();

        List<Sample> workers = ProfileSplit.read(file).stream().filter(s -> s.group().equals(WORKERS)).toList();

        assertThat(workers).isNotEmpty();
        // all but a sample or two taken as the thread started or ended
        assertThat(workers.stream().filter(s -> ProfileSplit.ownerOf(s.frames()).equals("the service's own code")).count())
                .isGreaterThanOrEqualTo(workers.size() * 9L / 10);
        // deeper than the five frames jfr print shows by default
        assertThat(workers).anySatisfy(sample -> assertThat(sample.frames().stream()
                .filter(frame -> frame.endsWith("ProfileSplitTest.spinAtDepth")).count()).isGreaterThan(5));

        // the command's arguments: the recording, an owner, steps (the innermost one on the stack wins)
        String report = ProfileSplit.reportOf(file.toString(), "--owner=the service's own code", "Thread.run",
                "ProfileSplitTest.spinAtDepth");
        assertThat(report).containsPattern("\\| paid \\| the commit workers \\| \\d+ \\| \\(the service's own code, "
                + "step: ProfileSplitTest\\.spinAtDepth\\) \\| (9\\d|100)\\.\\d% \\|");
    }

    private static long spinAtDepth(AtomicBoolean busy, int depth) {
        if (depth > 0) {
            return spinAtDepth(busy, depth - 1) + 1;
        }
        long sum = 0;
        while (busy.get()) {
            for (int i = 0; i < 10_000; i++) {
                sum += i ^ sum;
            }
        }
        return sum;
    }

    private static void add(List<Sample> samples, long second, String group, int count, String... frames) {
        for (int i = 0; i < count; i++) {
            samples.add(new Sample(second, group, List.of(frames)));
        }
    }
}
