package io.chanledger.api.support;

import static org.awaitility.Awaitility.await;

import io.chanledger.api.LedgerApplication;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.awaitility.core.ConditionTimeoutException;

/**
 * The service's own main method in a JVM of its own, as an operator starts it: the one way a test
 * can kill it as a crash would (SIGKILL), with nothing of it left in the test's JVM. Its class path
 * is the service's (the test JVM's, without test classes, which the service's component scan would
 * otherwise pick up); its output goes to a log file.
 */
public final class ServiceProcess {

    private final Process process;
    private final int port;
    private final Path log;

    private ServiceProcess(Process process, int port, Path log) {
        this.process = process;
        this.port = port;
        this.log = log;
    }

    /** Starts the service with {@code arguments} on a free port and waits until it answers its health check. */
    public static ServiceProcess start(Path log, Map<String, String> environment, List<String> arguments) {
        return start(log, environment, arguments, freePort());
    }

    /**
     * Starts the service on {@code port}: a service restarted in the place of one that was killed
     * (same host and port) is known to be its successor, as an operator's restart is.
     */
    public static ServiceProcess start(Path log, Map<String, String> environment, List<String> arguments, int port) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(List.of("-Xmx384m", "--enable-native-access=ALL-UNNAMED", "-cp", serviceClassPath(),
                LedgerApplication.class.getName(), "--server.port=" + port));
        command.addAll(arguments);
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        builder.environment().putAll(environment);
        try {
            ServiceProcess service = new ServiceProcess(builder.start(), port, log);
            service.awaitHealthy(Duration.ofSeconds(120));
            return service;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + port;
    }

    public int port() {
        return port;
    }

    public long pid() {
        return process.pid();
    }

    public Process process() {
        return process;
    }

    /** SIGKILL, as the kernel's OOM killer or a pulled plug would end it: no shutdown hook runs. */
    public void killHard() {
        process.destroyForcibly();
        waitFor(Duration.ofSeconds(30));
    }

    /** SIGTERM, as an operator stops it: the service shuts down in order. */
    public void stop() {
        process.destroy();
        if (!waitFor(Duration.ofSeconds(60))) {
            process.destroyForcibly();
            throw new AssertionError("the service did not stop within a minute of SIGTERM; log: " + log);
        }
    }

    private boolean waitFor(Duration timeout) {
        try {
            return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    private void awaitHealthy(Duration timeout) {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        try {
            await().atMost(timeout).pollInterval(Duration.ofMillis(250)).until(() -> healthy(client));
        } catch (ConditionTimeoutException e) {
            process.destroyForcibly();
            throw new AssertionError("the service did not answer its health check within " + timeout + "; log: " + log);
        }
    }

    /** Whether the health check answers 200; an assertion error, which ends the wait, once the service has stopped. */
    private boolean healthy(HttpClient client) throws InterruptedException {
        if (!process.isAlive()) {
            throw new AssertionError("the service stopped at start-up (exit " + process.exitValue() + "); log: " + log);
        }
        try {
            return client.send(HttpRequest.newBuilder(java.net.URI.create(baseUrl() + "/actuator/health"))
                    .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString()).statusCode() == 200;
        } catch (IOException notListeningYet) {
            return false;
        }
    }

    /** The embedded database's server and its backends, from the pid file it keeps in its data directory. */
    public static List<Long> embeddedDatabaseProcesses(Path dataDir) throws IOException {
        Path pidFile = dataDir.resolve("postgres").resolve("postmaster.pid");
        if (!Files.exists(pidFile)) {
            return List.of();
        }
        long pid = Long.parseLong(Files.readAllLines(pidFile).getFirst().trim());
        List<Long> pids = new ArrayList<>();
        ProcessHandle.of(pid).filter(ProcessHandle::isAlive).ifPresent(server -> {
            pids.add(server.pid());
            server.descendants().forEach(child -> pids.add(child.pid()));
        });
        return pids;
    }

    /**
     * SIGKILLs every process of the embedded database in {@code dataDir} and waits until each is
     * gone, as a crash of the whole machine leaves it: a restart begun while a killed server's
     * backend still holds its shared memory would find the server "still in use".
     */
    public static void killEmbeddedDatabase(Path dataDir) throws IOException {
        List<ProcessHandle> killed = new ArrayList<>();
        for (long pid : embeddedDatabaseProcesses(dataDir)) {
            ProcessHandle.of(pid).ifPresent(process -> {
                process.destroyForcibly();
                killed.add(process);
            });
        }
        for (ProcessHandle process : killed) {
            try {
                process.onExit().get(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted", e);
            } catch (ExecutionException | TimeoutException e) {
                throw new AssertionError("database process " + process.pid() + " still runs after SIGKILL", e);
            }
        }
    }

    private static String serviceClassPath() {
        return String.join(File.pathSeparator, Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(entry -> !entry.endsWith("test-classes") && !entry.endsWith("-tests.jar")
                        && !entry.contains("test-support"))
                .toList());
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The log's last lines, for an assertion's message. */
    public String logTail() {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }
}
