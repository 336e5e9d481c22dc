package io.chanledger.api.distribution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chanledger.testsupport.AnvilNode;
import io.chanledger.testsupport.Devnet;
import io.chanledger.testsupport.DevnetAccounts;
import io.chanledger.domain.provider.ProviderIds;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.web3j.crypto.Credentials;
import org.web3j.crypto.Keys;
import org.web3j.utils.Numeric;

/**
 * The distribution as a provider and an operator install it: the archive {@code package} built,
 * unpacked once into an empty folder; the marketplace started with its launcher and the example
 * file it ships, the provider with its launcher and one file of its own, each a process of its own
 * against the devnet, the provider listing itself at that marketplace; then both stopped as systemd
 * stops them (SIGTERM). The systemd units are checked against the archive's layout and the
 * operations guide, and by {@code systemd-analyze verify} where it is installed. Run by failsafe
 * after {@code package}, so it tests the archive of this very build.
 */
class DistributionIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration START_TIMEOUT = Duration.ofMinutes(4);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(90);
    /** anvil's account 3: a published test key, holding nothing outside a devnet. */
    private static final Credentials PROVIDER = DevnetAccounts.anvil(3);
    private static final List<String> ROLES = List.of("provider", "marketplace");
    private static final String ADMIN_TOKEN = "distribution-test-admin-token";

    @TempDir
    static Path work;
    /** The unpacked installation, shared by every test. */
    private static Path home;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    /** What each test started, stopped (killed, with its server) after it whatever happened. */
    private final List<Launched> launched = new ArrayList<>();

    /** A launcher's process: the JVM it replaced itself with, its log and its embedded store. */
    private record Launched(String name, Process process, Path log, Path storeDirectory,
                            List<ProcessHandle> started) {
    }

    @BeforeAll
    static void unpackTheArchive() throws Exception {
        home = unpack();
        assertThat(home.resolve("lib/chan-ledger.jar")).isRegularFile();
        assertThat(home.resolve("lib/launcher.sh")).isRegularFile();
        assertThat(home.resolve("lib/java-options.sh")).isRegularFile();
        for (String role : ROLES) {
            assertThat(home.resolve("bin/chan-" + role)).isExecutable();
            assertThat(home.resolve("etc/" + role + ".yml")).isRegularFile();
            assertThat(home.resolve("systemd/chan-" + role + ".service")).isRegularFile();
        }
        assertThat(home.resolve("README.md")).isRegularFile();
    }

    @Test
    void theMarketplaceAndTheProviderStartFromTheArchiveTheProviderListsItselfAndBothStopOnSigterm()
            throws Exception {
        Devnet devnet = Devnet.shared();
        Path folder = Files.createDirectories(work.resolve("network"));

        // the marketplace: its launcher with no file named, so the installation's etc/marketplace.yml,
        // with the devnet's chain and a port of its own given as settings, and its node's URL (a secret
        // there) in the environment; loopback providers let in, as a local network's are
        int marketplacePort = freePort();
        String marketplaceUrl = "http://127.0.0.1:" + marketplacePort;
        Launched marketplace = launch("bin/chan-marketplace", folder, folder.resolve("data/marketplace"),
                Map.of("CHAN_RPC_URL", devnet.rpcUrl()), List.of(
                        "--server.port=" + marketplacePort,
                        "--chan.chain.chain-id=" + devnet.chainId(),
                        "--chan.chain.channel-contract=" + devnet.channelAddress(),
                        "--chan.chain.usdc=" + devnet.usdcAddress(),
                        "--chan.listener.start-block=" + devnet.deployBlock(),
                        "--chan.listener.finality=depth", "--chan.listener.depth=0",
                        "--chan.marketplace.marketplace-url=" + marketplaceUrl,
                        "--chan.marketplace.allow-private-addresses=true"));

        int port = freePort();
        String baseUrl = "http://127.0.0.1:" + port;
        Path keyFile = folder.resolve("provider.key");
        Files.writeString(keyFile, Numeric.toHexStringWithPrefixZeroPadded(PROVIDER.getEcKeyPair().getPrivateKey(), 64)
                + "\n");
        Path providerStore = folder.resolve("provider-store");
        Path config = folder.resolve("provider.yml");
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
                    name: Distribution test provider
                    description: Started from the unpacked distribution.
                    public-url: %s
                    provider-key-file: %s
                    models:
                      - id: echo-dist
                        name: Echo from the distribution
                        upstream: echo
                        input-per-1k-tokens: "0.004"
                        output-per-1k-tokens: "0.012"
                    upstreams:
                      - name: echo
                        kind: echo
                  provider:
                    marketplace-url: %s
                  embedded-store:
                    directory: %s
                """.formatted(port, devnet.chainId(), devnet.rpcUrl(), devnet.channelAddress(), devnet.usdcAddress(),
                devnet.deployBlock(), baseUrl, keyFile, marketplaceUrl, providerStore));
        awaitUp(marketplace, marketplaceUrl);
        Launched provider = launch("bin/chan-provider", folder, providerStore, Map.of(), List.of(config.toString()));
        awaitUp(provider, baseUrl);

        for (Launched service : List.of(marketplace, provider)) {
            assertThat(service.process().info().command()).as("the %s's launcher replaced itself with the JVM",
                    service.name()).hasValueSatisfying(command -> assertThat(command).endsWith("/bin/java"));
        }
        String[] providerOptions = ProviderJavaOptions.in(home.resolve("lib/java-options.sh")).split(" ");
        assertThat(providerOptions).contains("-XX:+UseSerialGC");
        assertThat(provider.process().info().arguments()).as("the provider's small-server JVM options")
                .hasValueSatisfying(arguments -> assertThat(arguments).contains(providerOptions));
        assertThat(marketplace.process().info().arguments()).as("the marketplace's JVM options: the JVM's own")
                .hasValueSatisfying(arguments -> assertThat(arguments).doesNotContain(providerOptions));

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
        // the channel read models' tables come from the projections module's migrations, nested in the jar
        for (String url : List.of(baseUrl, marketplaceUrl)) {
            HttpResponse<String> channels = get(url + "/api/channels?provider=" + PROVIDER.getAddress());
            assertThat(channels.statusCode()).as("%s/api/channels: %s", url, channels.body()).isEqualTo(200);
        }
        assertThat(get(marketplaceUrl + "/api/directory/providers").statusCode()).isEqualTo(200);
        assertThat(get(baseUrl + "/api/directory/providers").statusCode()).as("a provider has no directory")
                .isEqualTo(404);

        // the provider listed itself at the marketplace (its models are published by a later health check)
        String listing = marketplaceUrl + "/api/directory/providers/"
                + ProviderIds.forAddress(PROVIDER.getAddress().toLowerCase());
        JsonNode entry = JSON.readTree(awaitStatus(listing, 200, Duration.ofSeconds(90), provider.log()).body());
        assertThat(entry.path("apiUrl").asText()).isEqualTo(baseUrl);
        assertThat(entry.path("providerAddress").asText()).isEqualTo(Keys.toChecksumAddress(PROVIDER.getAddress()));
        assertThat(entry.path("name").asText()).isEqualTo("Distribution test provider");

        stop(provider);
        stop(marketplace);
        assertThat(processesMentioning(folder)).as("processes still running from the test's folder").isEmpty();
    }

    /**
     * The shipped provider file as it stands, against a devnet whose contract and token are the
     * file's: it follows finalized blocks, which anvil finalizes only 64 blocks later, so the ledger
     * sees nothing of the chain and the provider says so (health DOWN, BEHIND_HEAD, its lag shown
     * to the admin). Started again with the settings the file names for a devnet, it follows the
     * chain's head and is UP.
     */
    @Test
    void theShippedProviderFileSaysWhatADevnetNeedsAndIsDownWithoutIt() throws Exception {
        String example = Files.readString(home.resolve("etc/provider.yml"));
        Matcher named = Pattern.compile("#\\s+finality: (depth)\\s*\n\\s*#\\s+depth: (\\d+)\\s*\n").matcher(example);
        assertThat(named.find()).as("etc/provider.yml names the listener's settings for a devnet").isTrue();
        List<String> devnetSettings = List.of("--chan.listener.finality=" + named.group(1),
                "--chan.listener.depth=" + named.group(2));
        try (AnvilNode node = AnvilNode.start()) {
            Devnet devnet = Devnet.deploy(node);
            assertThat(example).containsIgnoringCase(devnet.channelAddress()).containsIgnoringCase(devnet.usdcAddress());
            // an hour of chain time above the genesis block, all that anvil has finalized
            devnet.increaseTime(3_600);
            devnet.mine();
            long head = devnet.web3j().ethBlockNumber().send().getBlockNumber().longValueExact();

            Path folder = Files.createDirectories(work.resolve("shipped-file-on-a-devnet"));
            Path keyFile = folder.resolve("provider.key");
            Files.writeString(keyFile, Numeric.toHexStringWithPrefixZeroPadded(
                    PROVIDER.getEcKeyPair().getPrivateKey(), 64) + "\n");
            Path store = folder.resolve("data/provider");
            int port = freePort();
            String baseUrl = "http://127.0.0.1:" + port;
            Map<String, String> environment = Map.of("CHAN_RPC_URL", devnet.rpcUrl(), "OPENAI_API_KEY", "sk-test",
                    "SCRAPER_API_KEY", "scraper-test", "CHAN_ADMIN_TOKEN", ADMIN_TOKEN);
            // the installation's own file; only what a machine of the test's gives: its port, the key's
            // file, the store, no marketplace to list at, and a short grace before the lag counts
            List<String> settings = List.of("--server.port=" + port, "--chan.gateway.provider-key-file=" + keyFile,
                    "--chan.embedded-store.directory=" + store, "--chan.provider.marketplace-url=",
                    "--chan.listener.lag.grace=1s");

            Launched asShipped = launch("bin/chan-provider", folder, store, environment, settings);
            awaitHealth(asShipped, baseUrl, "DOWN");
            assertThat(asShipped.process().info().arguments()).as("the first run records the class cache")
                    .hasValueSatisfying(arguments -> assertThat(arguments).anySatisfy(argument ->
                            assertThat(argument).startsWith(classCacheRecorded())));
            JsonNode listener = adminHealth(baseUrl).path("components").path("chainListener");
            assertThat(listener.path("status").asText()).isEqualTo("DOWN");
            assertThat(listener.path("details").path("reason").asText()).isEqualTo("BEHIND_HEAD");
            assertThat(listener.path("details").path("checkpointBlock").asLong()).isZero();
            assertThat(listener.path("details").path("blocksBehind").asLong()).isEqualTo(head);
            assertThat(listener.path("details").path("detail").asText()).contains("chan.listener.finality=depth");
            stop(asShipped);

            List<String> asTheFileSays = new ArrayList<>(settings);
            asTheFileSays.addAll(devnetSettings);
            Launched following = launch("bin/chan-provider", folder, store, environment, asTheFileSays);
            awaitUp(following, baseUrl);
            assertThat(following.process().info().arguments()).as("a restart loads the class cache the first run wrote")
                    .hasValueSatisfying(arguments -> assertThat(arguments).anySatisfy(argument -> assertThat(argument)
                            .startsWith(classCacheUsed() + "data/jvm-cache/" + home.getFileName() + "/provider-")));
            try (var cached = Files.list(folder.resolve("data/jvm-cache").resolve(home.getFileName()))) {
                assertThat(cached.map(file -> file.getFileName().toString()))
                        .anySatisfy(name -> assertThat(name).startsWith("provider-"));
            }
            JsonNode caughtUp = adminHealth(baseUrl).path("components").path("chainListener");
            assertThat(caughtUp.path("status").asText()).isEqualTo("UP");
            assertThat(caughtUp.path("details").path("checkpointBlock").asLong()).isEqualTo(head);
            stop(following);
        }
        assertThat(processesMentioning(work.resolve("shipped-file-on-a-devnet"))).isEmpty();
    }

    /** The shipped provider file names its upstreams' keys as ${VARIABLES}: one left unset stops the start. */
    @Test
    void theLauncherStopsAtOnceNamingAKeysSettingAndItsUnsetVariable() throws Exception {
        Path folder = Files.createDirectories(work.resolve("unset-variable"));
        Launched provider = launch("bin/chan-provider", folder, folder.resolve("data/provider"),
                Map.of("CHAN_RPC_URL", "http://127.0.0.1:9", "OPENAI_API_KEY", "sk-test"), List.of());
        assertThat(provider.process().waitFor(START_TIMEOUT.toSeconds(), TimeUnit.SECONDS)).isTrue();
        String log = Files.readString(provider.log());
        assertThat(provider.process().exitValue()).as(log).isNotZero();
        assertThat(log).contains("APPLICATION FAILED TO START")
                .contains("chan.gateway.upstreams[1].api-key is ${SCRAPER_API_KEY}, but SCRAPER_API_KEY is not set")
                .doesNotContain("sk-test");
        assertThat(folder.resolve("data/provider")).as("refused before its store was made").doesNotExist();
    }

    /**
     * Each unit runs its role's launcher of the installation with the role's file, as the user and in
     * the folders the operations guide and the distribution's README name: the paths of ExecStart
     * are the archive's, under /opt/chan-ledger/current.
     */
    @Test
    void theSystemdUnitsRunTheArchivesLauncherWithTheDocumentedUserFoldersAndFiles() throws Exception {
        String operations = Files.readString(Path.of("../docs/operations.md")).replaceAll("\\s+", " ");
        String readme = Files.readString(home.resolve("README.md"));
        Matcher units = Pattern.compile("units: user `([^`]+)`, working directory `([^`]+)`.*?"
                + "`EnvironmentFile=/etc/chan-ledger/<role>\\.env`").matcher(operations);
        assertThat(units.find()).as("docs/operations.md describes the units").isTrue();
        String user = units.group(1);
        String workingDirectory = units.group(2);
        assertThat(operations).contains("The installation is the folder under `/opt/chan-ledger` with a link `current`",
                "the files in `/etc/chan-ledger`");
        Matcher useradd = Pattern.compile("useradd --system --home-dir (\\S+) [^\n]* (\\S+)\n").matcher(readme);
        assertThat(useradd.find()).as("the distribution's README makes the service's user").isTrue();
        assertThat(useradd.group(1)).isEqualTo(workingDirectory);
        assertThat(useradd.group(2)).isEqualTo(user);
        assertThat(readme).contains("ln -sfn /opt/chan-ledger/chan-ledger-VERSION /opt/chan-ledger/current");

        for (String role : ROLES) {
            Map<String, String> unit = unitSettings(home.resolve("systemd/chan-" + role + ".service"));
            assertThat(unit.get("User")).as(role).isEqualTo(user);
            assertThat(unit.get("Group")).as(role).isEqualTo(user);
            assertThat(unit.get("WorkingDirectory")).as(role).isEqualTo(workingDirectory);
            assertThat(unit.get("StateDirectory")).as("%s: systemd makes %s", role, workingDirectory)
                    .isEqualTo(workingDirectory.replaceFirst("^/var/lib/", ""));
            assertThat(unit.get("EnvironmentFile")).as(role).isEqualTo("/etc/chan-ledger/" + role + ".env");
            assertThat(readme).as(role).contains("/etc/chan-ledger/" + role + ".env");

            List<String> command = List.of(unit.get("ExecStart").split("\\s+"));
            assertThat(command).as("%s: ExecStart runs a launcher with one file", role).hasSize(2);
            assertThat(command.get(0)).as(role).startsWith("/opt/chan-ledger/current/");
            Path launcher = home.resolve(command.get(0).substring("/opt/chan-ledger/current/".length()));
            assertThat(launcher).as("%s: %s in the archive", role, command.get(0)).isExecutable()
                    .isEqualTo(home.resolve("bin/chan-" + role));
            assertThat(command.get(1)).as(role).isEqualTo("/etc/chan-ledger/" + role + ".yml");
            // the README copies the archive's example there, or names it as that role's file
            assertThat(home.resolve("etc/" + role + ".yml")).isRegularFile();
            assertThat(readme).as(role).contains("/etc/chan-ledger/" + role + ".yml");
        }
    }

    /** systemd's own check of the units, where systemd is installed, with ExecStart pointed at the archive. */
    @Test
    void systemdAnalyzeVerifiesTheUnits() throws Exception {
        assumeTrue(onPath("systemd-analyze"), "systemd-analyze is not installed");
        Path units = Files.createDirectories(work.resolve("units"));
        for (String role : ROLES) {
            String unit = Files.readString(home.resolve("systemd/chan-" + role + ".service"));
            assertThat(unit).contains("/opt/chan-ledger/current/");
            // the unit as it runs once installed: /opt/chan-ledger/current is the unpacked folder
            Path installed = Files.writeString(units.resolve("chan-" + role + ".service"),
                    unit.replace("/opt/chan-ledger/current/", home + "/"));
            Process verify = new ProcessBuilder("systemd-analyze", "verify", "--man=no", installed.toString())
                    .redirectErrorStream(true).start();
            String output = new String(verify.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(verify.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(verify.exitValue()).as(output).isZero();
            // it exits 0 on settings it ignores (a misspelt key, a bad value): those are printed
            assertThat(output.lines().filter(line -> line.contains(installed.getFileName().toString())).toList())
                    .as("systemd-analyze verify of chan-%s.service", role).isEmpty();
        }
    }

    /**
     * The launcher's class cache option of a first run, which records what it loads and writes the
     * cache at its stop: the AOT cache's from Java 25, a dynamic class data sharing archive's before.
     */
    private static String classCacheRecorded() {
        return Runtime.version().feature() >= 25 ? "-XX:AOTCacheOutput=" : "-XX:SharedArchiveFile=";
    }

    /** The option of a start that loads the cache a run before it wrote. */
    private static String classCacheUsed() {
        return Runtime.version().feature() >= 25 ? "-XX:AOTCache=" : "-XX:SharedArchiveFile=";
    }

    /** A failed run leaves nothing behind either: each service and then its server are killed. */
    @AfterEach
    void stopWhateverIsLeft() throws Exception {
        for (Launched service : launched) {
            List<ProcessHandle> started = new ArrayList<>(service.started());
            if (service.process().isAlive()) {
                started.addAll(service.process().descendants().toList());
                service.process().destroyForcibly();
                service.process().waitFor(30, TimeUnit.SECONDS);
            }
            started.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
            embeddedPostgresPid(service.storeDirectory()).flatMap(ProcessHandle::of)
                    .ifPresent(ProcessHandle::destroyForcibly);
        }
    }

    /**
     * The installation's {@code launcher} ({@code bin/chan-<role>}) with these arguments, from
     * {@code folder}, with this environment only: as a user's shell would, no setting of the build's
     * environment leaks in, and the launcher finds this JVM's Java through JAVA_HOME.
     */
    private Launched launch(String launcher, Path folder, Path storeDirectory, Map<String, String> environment,
                            List<String> arguments) throws IOException {
        String role = launcher.substring("bin/chan-".length());
        List<String> command = new ArrayList<>(List.of(home.resolve(launcher).toString()));
        command.addAll(arguments);
        Path log = folder.resolve(role + ".log");
        ProcessBuilder process = new ProcessBuilder(command).directory(folder.toFile())
                .redirectErrorStream(true).redirectOutput(log.toFile());
        process.environment().keySet().removeIf(name -> name.startsWith("CHAN_") || name.startsWith("SPRING_"));
        process.environment().put("JAVA_HOME", System.getProperty("java.home"));
        process.environment().putAll(environment);
        Launched service = new Launched(role, process.start(), log, storeDirectory, new ArrayList<>());
        launched.add(service);
        return service;
    }

    /** SIGTERM, as systemd stops it: the service exits within the unit's timeout, and its store with it. */
    private void stop(Launched service) throws Exception {
        long postgres = embeddedPostgresPid(service.storeDirectory()).orElseThrow(() -> new AssertionError(
                "the " + service.name() + " runs without its embedded PostgreSQL's postmaster.pid in "
                        + service.storeDirectory()));
        assertThat(ProcessHandle.of(postgres)).as("the %s's embedded PostgreSQL (pid %d) runs", service.name(), postgres)
                .hasValueSatisfying(process -> assertThat(process.isAlive()).isTrue());
        // the launcher replaced itself with the JVM, so this SIGTERM reaches the service as systemd's would
        service.started().addAll(service.process().descendants().toList());
        service.process().destroy();
        assertThat(service.process().waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS))
                .as("the %s exits within %s of SIGTERM; log:%n%s", service.name(), STOP_TIMEOUT, tail(service.log()))
                .isTrue();
        awaitGone(postgres);
        assertThat(ProcessHandle.of(postgres).filter(ProcessHandle::isAlive))
                .as("the embedded PostgreSQL (pid %d) stopped with the %s; log:%n%s", postgres, service.name(),
                        tail(service.log()))
                .isEmpty();
    }

    /** The archive this build made, unpacked with tar as a user unpacks it (file modes included). */
    private static Path unpack() throws Exception {
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

    private void awaitUp(Launched service, String baseUrl) throws Exception {
        awaitHealth(service, baseUrl, "UP");
    }

    /** Waits for the service's overall health to be {@code status} (UP answered 200, DOWN 503). */
    private void awaitHealth(Launched service, String baseUrl, String status) throws Exception {
        int code = "UP".equals(status) ? 200 : 503;
        AtomicReference<String> last = new AtomicReference<>("no answer");
        try {
            await().atMost(START_TIMEOUT).pollInterval(Duration.ofMillis(500)).until(() -> {
                if (!service.process().isAlive()) {
                    throw new AssertionError("the " + service.name() + " stopped at start-up (exit "
                            + service.process().exitValue() + "); log:\n" + tail(service.log()));
                }
                try {
                    HttpResponse<String> health = get(baseUrl + "/actuator/health");
                    last.set(health.statusCode() + " " + health.body());
                    return health.statusCode() == code
                            && status.equals(JSON.readTree(health.body()).path("status").asText());
                } catch (IOException notListeningYet) {
                    last.set(notListeningYet.toString());
                    return false;
                }
            });
        } catch (ConditionTimeoutException e) {
            throw new AssertionError("the " + service.name() + " was not " + status + " within " + START_TIMEOUT + " (last: "
                    + last.get() + "); log:\n" + tail(service.log()));
        }
    }

    private HttpResponse<String> awaitStatus(String url, int status, Duration timeout, Path log) throws Exception {
        AtomicReference<HttpResponse<String>> reply = new AtomicReference<>(get(url));
        try {
            await().atMost(timeout).pollInterval(Duration.ofMillis(500)).until(() -> {
                reply.set(get(url));
                return reply.get().statusCode() == status;
            });
        } catch (ConditionTimeoutException e) {
            // the assertion below names what was answered last
        }
        assertThat(reply.get().statusCode()).as("%s within %s: %s; log:%n%s", url, timeout, reply.get().body(),
                tail(log)).isEqualTo(status);
        return reply.get();
    }

    /** The operator's health, with the admin token the test's services run with. */
    private JsonNode adminHealth(String baseUrl) throws Exception {
        HttpResponse<String> reply = http.send(HttpRequest.newBuilder(URI.create(baseUrl + "/api/admin/health"))
                .timeout(Duration.ofSeconds(10)).header("Authorization", "Bearer " + ADMIN_TOKEN).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(reply.statusCode()).as(reply.body()).isEqualTo(200);
        return JSON.readTree(reply.body());
    }

    private HttpResponse<String> get(String url) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** A unit's settings, each key's last value (comments and section headers left out). */
    private static Map<String, String> unitSettings(Path unit) throws IOException {
        Map<String, String> settings = new LinkedHashMap<>();
        for (String line : Files.readAllLines(unit)) {
            int equals = line.indexOf('=');
            if (!line.startsWith("#") && !line.startsWith("[") && equals > 0) {
                settings.put(line.substring(0, equals).strip(), line.substring(equals + 1).strip());
            }
        }
        return settings;
    }

    private static boolean onPath(String program) {
        return Optional.ofNullable(System.getenv("PATH")).stream()
                .flatMap(path -> List.of(path.split(":")).stream())
                .anyMatch(folder -> Files.isExecutable(Path.of(folder, program)));
    }

    /** The embedded server's postmaster, from the pid file it keeps while it runs. */
    private static Optional<Long> embeddedPostgresPid(Path storeDirectory) throws IOException {
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

    /** Live processes whose command line names the folder: the services, their servers or their backends. */
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
