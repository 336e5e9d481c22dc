package io.chanledger.api.distribution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chanledger.chain.devnet.Devnet;
import io.chanledger.chain.devnet.DevnetAccounts;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.web3j.crypto.Credentials;
import org.web3j.crypto.Keys;
import org.web3j.utils.Numeric;

/**
 * The distribution as a provider installs it: the archive {@code package} built, unpacked into an
 * empty folder, and the provider started with its launcher and one configuration file as a
 * process of its own, against the devnet; then stopped as systemd stops it (SIGTERM). Run by
 * failsafe after {@code package}, so it tests the archive of this very build.
 */
class DistributionIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration START_TIMEOUT = Duration.ofMinutes(4);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(90);
    /** anvil's account 3: a published test key, holding nothing outside a devnet. */
    private static final Credentials PROVIDER = DevnetAccounts.anvil(3);

    @TempDir
    Path work;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private Process provider;
    /** What the launcher started, seen while it ran: left alive by a launcher that did not replace itself. */
    private List<ProcessHandle> started = List.of();
    private Path storeDirectory;

    @Test
    void theProviderStartsFromTheUnpackedArchiveWithOneFileServesItsPricesAndPaymentTermsAndStopsOnSigterm()
            throws Exception {
        Path home = unpack();
        assertThat(home.resolve("lib/chan-ledger.jar")).isRegularFile();
        assertThat(home.resolve("bin/chan-provider")).isExecutable();
        assertThat(home.resolve("bin/chan-marketplace")).isExecutable();
        assertThat(home.resolve("etc/provider.yml")).isRegularFile();
        assertThat(home.resolve("etc/marketplace.yml")).isRegularFile();
        assertThat(home.resolve("systemd/chan-provider.service")).isRegularFile();
        assertThat(home.resolve("systemd/chan-marketplace.service")).isRegularFile();
        assertThat(home.resolve("README.md")).isRegularFile();

        Devnet devnet = Devnet.shared();
        int port = freePort();
        storeDirectory = work.resolve("store");
        Path keyFile = work.resolve("provider.key");
        Files.writeString(keyFile, Numeric.toHexStringWithPrefixZeroPadded(PROVIDER.getEcKeyPair().getPrivateKey(), 64)
                + "\n");
        Path config = work.resolve("provider.yml");
        Files.writeString(config, """
                server:
                  port: %d
                chan:
                  chain:
                    chain-id: %d
                    rpc-url: %s
                    channel-contract: "%s"
                    usdc: "%s"
                  listener:
                    start-block: %s
                    # anvil never reorganises: read up to its head
                    finality: depth
                    depth: 0
                  gateway:
                    enabled: true
                    name: Distribution test provider
                    description: Started from the unpacked distribution.
                    public-url: http://127.0.0.1:%d
                    provider-key-file: %s
                    models:
                      - id: echo-dist
                        name: Echo from the distribution
                        input-per-1k-tokens: "0.004"
                        output-per-1k-tokens: "0.012"
                    upstream:
                      kind: echo
                  embedded-store:
                    directory: %s
                """.formatted(port, devnet.chainId(), devnet.rpcUrl(), devnet.channelAddress(), devnet.usdcAddress(),
                devnet.deployBlock(), port, keyFile, storeDirectory));

        Path log = work.resolve("provider.log");
        ProcessBuilder launcher = new ProcessBuilder(home.resolve("bin/chan-provider").toString(), config.toString())
                .directory(work.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        // as a user's shell would: no setting of the build's environment leaks into the provider,
        // and the launcher finds this JVM's Java through JAVA_HOME
        launcher.environment().keySet().removeIf(name -> name.startsWith("CHAN_") || name.startsWith("SPRING_"));
        launcher.environment().put("JAVA_HOME", System.getProperty("java.home"));
        provider = launcher.start();
        String baseUrl = "http://127.0.0.1:" + port;
        awaitUp(baseUrl, log);
        assertThat(provider.info().command()).as("the launcher replaced itself with the JVM")
                .hasValueSatisfying(command -> assertThat(command).endsWith("/bin/java"));

        HttpResponse<String> pricingReply = get(baseUrl + "/v1/pricing");
        assertThat(pricingReply.statusCode()).as(pricingReply.body()).isEqualTo(200);
        JsonNode pricing = JSON.readTree(pricingReply.body());
        assertThat(pricing.path("provider").asText()).isEqualTo(Keys.toChecksumAddress(PROVIDER.getAddress()));
        assertThat(pricing.path("providerName").asText()).isEqualTo("Distribution test provider");
        assertThat(pricing.path("models").path("echo-dist").path("inputPer1kTokens").textValue()).isEqualTo("0.004");
        assertThat(pricing.path("models").path("echo-dist").path("outputPer1kTokens").textValue()).isEqualTo("0.012");

        HttpResponse<String> unpaid = http.send(HttpRequest.newBuilder(URI.create(baseUrl + "/v1/chat/completions"))
                        .timeout(Duration.ofSeconds(30))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(
                                "{\"model\":\"echo-dist\",\"messages\":[{\"role\":\"user\",\"content\":\"hello\"}]}"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(unpaid.statusCode()).as(unpaid.body()).isEqualTo(402);
        assertThat(unpaid.headers().firstValue("X-Payment-Protocol")).hasValue("chan-v2");

        long postgres = embeddedPostgresPid().orElseThrow(() -> new AssertionError(
                "the provider runs without its embedded PostgreSQL's postmaster.pid in " + storeDirectory));
        assertThat(ProcessHandle.of(postgres)).as("the embedded PostgreSQL (pid %d) runs", postgres)
                .hasValueSatisfying(process -> assertThat(process.isAlive()).isTrue());

        // the launcher replaced itself with the JVM, so this SIGTERM reaches the service as systemd's would
        started = provider.descendants().toList();
        provider.destroy();
        assertThat(provider.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS))
                .as("the provider exits within %s of SIGTERM; log:%n%s", STOP_TIMEOUT, tail(log)).isTrue();
        awaitGone(postgres);
        assertThat(ProcessHandle.of(postgres).filter(ProcessHandle::isAlive))
                .as("the embedded PostgreSQL (pid %d) stopped with the provider; log:%n%s", postgres, tail(log))
                .isEmpty();
        assertThat(processesMentioning(work)).as("processes still running from the test's folder").isEmpty();
    }

    /** A failed run leaves nothing behind either: the service and then its server are killed. */
    @AfterEach
    void stopWhateverIsLeft() throws Exception {
        if (provider != null && provider.isAlive()) {
            started = provider.descendants().toList();
            provider.destroyForcibly();
            provider.waitFor(30, TimeUnit.SECONDS);
        }
        started.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
        if (storeDirectory != null) {
            embeddedPostgresPid().flatMap(ProcessHandle::of).ifPresent(ProcessHandle::destroyForcibly);
        }
    }

    /** The archive this build made, unpacked with tar as a user unpacks it (file modes included). */
    private Path unpack() throws Exception {
        Path archive = Path.of(System.getProperty("chan.distribution.archive", "(chan.distribution.archive unset)"));
        assertThat(archive).as("the distribution archive: run `./mvnw verify`, which builds it at package").isRegularFile();
        Path unpacked = Files.createDirectories(work.resolve("install"));
        Process tar = new ProcessBuilder("tar", "-xzf", archive.toString(), "-C", unpacked.toString())
                .redirectErrorStream(true).start();
        String output = new String(tar.getInputStream().readAllBytes());
        assertThat(tar.waitFor()).as("tar: %s", output).isZero();
        String folder = System.getProperty("chan.distribution.folder");
        try (var entries = Files.list(unpacked)) {
            assertThat(entries.map(entry -> entry.getFileName().toString()).toList())
                    .as("the archive holds one folder, named after the version").containsExactly(folder);
        }
        return unpacked.resolve(folder);
    }

    private void awaitUp(String baseUrl, Path log) throws Exception {
        AtomicReference<String> last = new AtomicReference<>("no answer");
        try {
            await().atMost(START_TIMEOUT).pollInterval(Duration.ofMillis(500)).until(() -> {
                if (!provider.isAlive()) {
                    throw new AssertionError("the provider stopped at start-up (exit " + provider.exitValue()
                            + "); log:\n" + tail(log));
                }
                try {
                    HttpResponse<String> health = get(baseUrl + "/actuator/health");
                    last.set(health.statusCode() + " " + health.body());
                    return health.statusCode() == 200
                            && "UP".equals(JSON.readTree(health.body()).path("status").asText());
                } catch (IOException notListeningYet) {
                    last.set(notListeningYet.toString());
                    return false;
                }
            });
        } catch (ConditionTimeoutException e) {
            throw new AssertionError("the provider was not UP within " + START_TIMEOUT + " (last: " + last.get()
                    + "); log:\n" + tail(log));
        }
    }

    private HttpResponse<String> get(String url) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** The embedded server's postmaster, from the pid file it keeps while it runs. */
    private Optional<Long> embeddedPostgresPid() throws IOException {
        Path pidFile = storeDirectory.resolve("postgres/postmaster.pid");
        if (!Files.isRegularFile(pidFile)) {
            return Optional.empty();
        }
        List<String> lines = Files.readAllLines(pidFile);
        return lines.isEmpty() ? Optional.empty() : Optional.of(Long.parseLong(lines.get(0).strip()));
    }

    private static void awaitGone(long pid) {
        try {
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                    .until(() -> ProcessHandle.of(pid).filter(ProcessHandle::isAlive).isEmpty());
        } catch (ConditionTimeoutException stillThere) {
            // the caller's assertions name the process that outlived the wait
        }
    }

    /** Live processes whose command line names the folder: the service, its server or its backends. */
    private static List<String> processesMentioning(Path folder) {
        String path = folder.toString();
        return ProcessHandle.allProcesses()
                .filter(ProcessHandle::isAlive)
                .filter(process -> process.info().commandLine().map(line -> line.contains(path)).orElse(false))
                .map(process -> process.pid() + " " + process.info().commandLine().orElse(""))
                .toList();
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }
}
