package io.chanledger.testsupport;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import org.awaitility.core.ConditionTimeoutException;
import org.web3j.protocol.Web3j;
import org.web3j.protocol.http.HttpService;

/**
 * A local anvil process with Polygon's chain id (137) on a free loopback port, using the anvil
 * binary that {@code npm ci --prefix deploy} installs. Use {@link #shared()} unless a test needs a
 * node of its own (for example one started with {@code --timestamp}).
 */
public final class AnvilNode implements AutoCloseable {

    public static final long CHAIN_ID = 137;
    /** Overrides the binary under deploy/node_modules; read as a system property, then from the environment. */
    public static final String BINARY_OVERRIDE = "CHAN_ANVIL_BIN";

    private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(30);
    private static final int START_ATTEMPTS = 3;
    private static AnvilNode shared;

    private final Process process;
    private final int port;
    private final Path log;
    private final Thread shutdownHook;
    private HttpService service;
    private Web3j web3j;

    private AnvilNode(Process process, int port, Path log) {
        this.process = process;
        this.port = port;
        this.log = log;
        this.shutdownHook = new Thread(process::destroy, "anvil-" + port + "-shutdown");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /** One node per JVM, started on first use and stopped when the JVM exits. */
    public static synchronized AnvilNode shared() {
        if (shared == null || !shared.process.isAlive()) {
            shared = start();
        }
        return shared;
    }

    /** A node of the caller's own, with extra anvil arguments such as {@code "--timestamp", "1700000000"}. */
    public static AnvilNode start(String... extraArgs) {
        Path binary = binary();
        IllegalStateException failure = null;
        for (int attempt = 0; attempt < START_ATTEMPTS; attempt++) {
            // The free port can be taken between probing and binding; another port then helps.
            try {
                return launch(binary, freePort(), List.of(extraArgs));
            } catch (IllegalStateException e) {
                failure = e;
            }
        }
        throw failure;
    }

    public String rpcUrl() {
        return "http://127.0.0.1:" + port;
    }

    public int port() {
        return port;
    }

    /** The anvil process id, for measuring what it costs. */
    public long pid() {
        return process.pid();
    }

    public synchronized Web3j web3j() {
        if (web3j == null) {
            web3j = Web3j.build(service());
        }
        return web3j;
    }

    /** The HTTP transport behind {@link #web3j()}, for node methods web3j has no typed call for. */
    public synchronized HttpService service() {
        if (service == null) {
            service = new HttpService(rpcUrl());
        }
        return service;
    }

    public boolean isRunning() {
        return process.isAlive();
    }

    @Override
    public synchronized void close() {
        if (web3j != null) {
            web3j.shutdown();
            web3j = null;
        }
        service = null;
        process.destroy();
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException alreadyShuttingDown) {
            // The hook is running or about to run; it destroys the same process.
        }
        try {
            Files.deleteIfExists(log);
        } catch (IOException ignored) {
            // A leftover log file in the temp directory is harmless.
        }
    }

    static Path binary() {
        String override = System.getProperty(BINARY_OVERRIDE, System.getenv(BINARY_OVERRIDE));
        if (override != null && !override.isBlank()) {
            Path path = Path.of(override);
            if (!Files.isExecutable(path)) {
                throw new IllegalStateException(BINARY_OVERRIDE + " points to " + path + ", which is not an executable file");
            }
            return path;
        }
        Path deploy = DeployDir.locate();
        Path path = deploy.resolve("node_modules/@foundry-rs/anvil-" + platform() + "/bin/anvil");
        if (!Files.isExecutable(path)) {
            throw new IllegalStateException("anvil is not installed (expected " + path + "). Run `npm ci --prefix deploy`"
                    + " in the repository root, or set " + BINARY_OVERRIDE + " to an anvil binary.");
        }
        return path;
    }

    private static String platform() {
        String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT);
        String osPart = os.contains("mac") ? "darwin" : os.contains("win") ? "win32" : "linux";
        String archPart = arch.equals("aarch64") || arch.equals("arm64") ? "arm64" : "amd64";
        return osPart + "-" + archPart;
    }

    private static AnvilNode launch(Path binary, int port, List<String> extraArgs) {
        List<String> command = new ArrayList<>(List.of(binary.toString(),
                "--chain-id", Long.toString(CHAIN_ID), "--host", "127.0.0.1", "--port", Integer.toString(port)));
        command.addAll(extraArgs);
        Path log;
        Process process;
        try {
            log = Files.createTempFile("anvil-" + port + "-", ".log");
            process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        } catch (IOException e) {
            throw new UncheckedIOException("could not start " + binary, e);
        }
        AnvilNode node = new AnvilNode(process, port, log);
        try {
            node.awaitReady();
            return node;
        } catch (RuntimeException e) {
            String output = node.logText();
            node.close();
            throw new IllegalStateException("anvil did not come up on port " + port + ": " + e.getMessage()
                    + "\n" + output, e);
        }
    }

    private void awaitReady() {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
        HttpRequest request = HttpRequest.newBuilder(URI.create(rpcUrl()))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"eth_chainId\",\"params\":[]}"))
                .build();
        try {
            await().atMost(STARTUP_TIMEOUT).pollInterval(Duration.ofMillis(50)).pollInSameThread().until(() -> {
                if (!process.isAlive()) {
                    throw new IllegalStateException("anvil exited with code " + process.exitValue());
                }
                try {
                    HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
                    return response.statusCode() == 200 && response.body().contains("\"0x89\"");
                } catch (IOException notListeningYet) {
                    return false;
                }
            });
        } catch (ConditionTimeoutException e) {
            throw new IllegalStateException("no eth_chainId answer within " + STARTUP_TIMEOUT);
        }
    }

    private String logText() {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            return "(no anvil output: " + e.getMessage() + ")";
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free loopback port", e);
        }
    }
}
