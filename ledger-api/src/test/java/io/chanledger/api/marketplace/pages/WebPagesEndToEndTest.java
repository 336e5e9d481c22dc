package io.chanledger.api.marketplace.pages;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.chanledger.api.support.AdminReads;
import io.chanledger.api.support.Http;
import io.chanledger.api.support.LedgerIntegrationTest;
import io.chanledger.testsupport.Devnet;
import io.chanledger.testsupport.OpenedChannel;
import io.chanledger.domain.eip712.DigestSigner;
import io.chanledger.domain.eip712.Hex;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Value;
import org.web3j.crypto.Credentials;
import org.web3j.crypto.Keys;
import org.web3j.utils.Numeric;

/**
 * The web pages in a real browser against the whole service on the devnet: this test pays one
 * request on a fresh channel to the test gateway, claims on another channel, and has the gateway's
 * provider claim what it charged a third (for its dashboard), then runs {@code web/e2e/run.mjs} (Playwright
 * driving headless Chromium, with a test EIP-1193 wallet injected into the pages) and requires
 * every scenario to pass, on a desktop's width and a phone's (390 px). Screenshots of every page land
 * in {@code target/web-screenshots}.
 *
 * <p>It needs the built front end in the jar's resources, its npm packages and Chromium:
 * {@code deploy/test.sh} provides them and sets {@code CHAN_WEB_E2E=required}, which turns their
 * absence into a failure; a bare {@code ./mvnw verify} without them skips this test.
 */
class WebPagesEndToEndTest extends LedgerIntegrationTest {

    private static final Path WEB = Path.of("..", "web").toAbsolutePath().normalize();
    private static final Path CHROMIUM = Path.of(System.getenv().getOrDefault("CHAN_CHROMIUM", "/usr/bin/chromium"));
    private static final Duration RUN_LIMIT = Duration.ofMinutes(5);

    @Value("${chan.gateway.provider-key}")
    String providerKey;
    @Value("${chan.admin.token}")
    String adminToken;

    @Test
    void everyPageWorksInABrowserAgainstTheService() throws Exception {
        requireBrowserSetup();
        PaidChannel paid = payOneRequest("echo-1");
        ClaimedChannel claimed = claimOnAFreshChannel();
        ClaimedChannel providerClaim = claimWhatTheGatewayCharged(payOneRequest("echo-flat"));
        Http.Reply dashboard = AdminReads.get(baseUrl() + "/api/provider/dashboard");
        assertThat(dashboard.status()).as(dashboard.body()).isEqualTo(200);

        Path screenshots = Path.of("target", "web-screenshots").toAbsolutePath();
        Path output = Files.createTempFile("web-e2e", ".log");
        ProcessBuilder builder = new ProcessBuilder(List.of("node", WEB.resolve("e2e/run.mjs").toString(), baseUrl()))
                .directory(WEB.toFile())
                .redirectErrorStream(true)
                .redirectOutput(output.toFile());
        builder.environment().put("CHAN_E2E_ADMIN_TOKEN", adminToken);
        builder.environment().put("CHAN_E2E_CHANNEL", paid.channelId());
        builder.environment().put("CHAN_E2E_CHARGED", paid.charged().toString());
        builder.environment().put("CHAN_E2E_CONSUMER_KEY", paid.consumerKey());
        builder.environment().put("CHAN_E2E_PROVIDER_KEY", providerKey);
        builder.environment().put("CHAN_E2E_CLAIM_CHANNEL", claimed.channelId());
        builder.environment().put("CHAN_E2E_CLAIM_PAYOUT", claimed.payout().toString());
        builder.environment().put("CHAN_E2E_CLAIM_FEE", claimed.fee().toString());
        builder.environment().put("CHAN_E2E_CLAIM_TOTAL", claimed.payout().toString());
        builder.environment().put("CHAN_E2E_DASHBOARD", dashboard.body());
        builder.environment().put("CHAN_E2E_DASHBOARD_CLAIM_CHANNEL", providerClaim.channelId());
        builder.environment().put("CHAN_E2E_DASHBOARD_CLAIM_PAYOUT", providerClaim.payout().toString());
        builder.environment().put("CHAN_E2E_DASHBOARD_CLAIM_FEE", providerClaim.fee().toString());
        builder.environment().put("CHAN_E2E_SCREENSHOTS", screenshots.toString());
        builder.environment().put("CHAN_CHROMIUM", CHROMIUM.toString());
        Process run = builder.start();
        boolean finished = run.waitFor(RUN_LIMIT.toSeconds(), TimeUnit.SECONDS);
        if (!finished) {
            run.destroyForcibly();
        }
        String log = Files.readString(output, StandardCharsets.UTF_8);
        Files.deleteIfExists(output);
        System.out.println(log);

        assertThat(finished).as("the end-to-end run finished within %s:%n%s", RUN_LIMIT, log).isTrue();
        assertThat(log).as(log).doesNotContain("not ok -");
        assertThat(run.exitValue()).as(log).isZero();
        assertThat(log).as(log).contains(
                "ok - become a provider: register through the form, approve in the console",
                "ok - become a provider: a second provider under an existing name waits, flagged in the console",
                "ok - become a provider: a wallet that is already a provider sees its listing, not a blank form",
                "ok - marketplace: browse and filter",
                "ok - marketplace: 200 providers render and filter quickly",
                "ok - console: replay runs to COMPLETED with matching checksums",
                "ok - console: an invalid skill shows its problems",
                "ok - channel explorer: the consumer sees the voucher and the charged total",
                "ok - channel explorer: the network summary, and a claim shows its payout, fee and total claimed",
                "ok - my channels: the provider sees the channel among its claimables",
                "ok - provider dashboard: the provider's wallet sees its earnings, claims and revenue per model",
                "ok - provider dashboard: another wallet is refused and sees nothing",
                "ok - provider page: a provider's documents inline from its own origin; its paid and signed endpoints "
                        + "stay closed",
                "ok - skills: a role no listed provider fills says so, a filled one names its providers",
                "ok - a browser at an address that is no page gets a page; API clients keep the JSON",
                "ok - every page on a 390 px screen: no sideways scrolling, model names whole");
    }

    private record PaidChannel(String channelId, String consumerKey, BigInteger charged) {
    }

    private record ClaimedChannel(String channelId, BigInteger payout, BigInteger fee) {
    }

    /**
     * A fresh agent opens a channel to a fresh provider, which claims a voucher on-chain: the
     * claim's payout, the contract's fee on it and the claimed total are what the pages must show.
     */
    private ClaimedChannel claimOnAFreshChannel() throws Exception {
        Devnet devnet = devnet();
        Credentials agent = Credentials.create(Keys.createEcKeyPair());
        Credentials provider = Credentials.create(Keys.createEcKeyPair());
        devnet.setBalance(agent.getAddress(), Devnet.GAS_MONEY);
        devnet.setBalance(provider.getAddress(), Devnet.GAS_MONEY);
        OpenedChannel opened = devnet.fundAndOpen(agent, provider.getAddress(), BigInteger.valueOf(3_000_000), 86_400);
        BigInteger payout = BigInteger.valueOf(1_250_000);
        BigInteger fee = payout.multiply(devnet.feeBps()).divide(BigInteger.valueOf(10_000));
        devnet.claim(provider, opened.channelId(), payout, BigInteger.ONE,
                devnet.signVoucher(agent, opened.channelId(), payout, BigInteger.ONE));
        String channel = baseUrl() + "/api/channels/" + opened.channelId();
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).until(() -> {
            Http.Reply reply = Http.get(channel);
            return reply.status() == 200 && reply.json().path("claimed").asText().equals(payout.toString());
        });
        return new ClaimedChannel(opened.channelId(), payout, fee);
    }

    /**
     * The test gateway's provider claims on-chain exactly what {@code paid} was charged, with a
     * voucher its consumer signs for that amount: the claim the dashboard must show.
     */
    private ClaimedChannel claimWhatTheGatewayCharged(PaidChannel paid) throws Exception {
        Devnet devnet = devnet();
        Credentials provider = Credentials.create(providerKey);
        Credentials agent = Credentials.create(paid.consumerKey());
        devnet.setBalance(provider.getAddress(), Devnet.GAS_MONEY);
        BigInteger payout = paid.charged();
        BigInteger fee = payout.multiply(devnet.feeBps()).divide(BigInteger.valueOf(10_000));
        devnet.claim(provider, paid.channelId(), payout, BigInteger.TWO,
                devnet.signVoucher(agent, paid.channelId(), payout, BigInteger.TWO));
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).until(() -> {
            Http.Reply reply = AdminReads.get(baseUrl() + "/api/provider/dashboard");
            return reply.status() == 200 && reply.json().path("claims").findValuesAsText("channelId").contains(paid.channelId());
        });
        return new ClaimedChannel(paid.channelId(), payout, fee);
    }

    /** A fresh agent opens a channel to the test gateway on the devnet and pays one request for {@code model}. */
    private PaidChannel payOneRequest(String model) throws Exception {
        Devnet devnet = devnet();
        Credentials agent = Credentials.create(Keys.createEcKeyPair());
        devnet.setBalance(agent.getAddress(), Devnet.GAS_MONEY);
        String provider = new DigestSigner(Numeric.hexStringToByteArray(providerKey)).address();
        OpenedChannel opened = devnet.fundAndOpen(agent, provider, BigInteger.valueOf(2_000_000), 86_400);
        String channelId = opened.channelId();
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                .until(() -> Http.get(baseUrl() + "/api/channels/" + channelId).status() == 200);

        BigInteger amount = BigInteger.valueOf(50_000);
        String signature = Hex.encode(devnet.signVoucher(agent, channelId, amount, BigInteger.ONE));
        String voucher = "{\"channelId\":\"" + channelId + "\",\"amount\":\"" + amount + "\",\"nonce\":\"1\","
                + "\"signature\":\"" + signature + "\"}";
        Http.Reply reply = Http.send(HttpRequest.newBuilder(URI.create(baseUrl() + "/v1/chat/completions"))
                .header("Content-Type", "application/json")
                .header("X-CHAN-Voucher", voucher)
                .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"" + model + "\",\"messages\":[{\"role\":"
                        + "\"user\",\"content\":\"hello from the web pages test\"}]}")));
        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        BigInteger charged = new BigInteger(reply.raw().headers().firstValue("X-CHAN-Total").orElseThrow());
        String consumerKey = Numeric.toHexStringWithPrefixZeroPadded(agent.getEcKeyPair().getPrivateKey(), 64);
        return new PaidChannel(channelId, consumerKey, charged);
    }

    private static void requireBrowserSetup() {
        boolean required = "required".equals(System.getenv("CHAN_WEB_E2E"));
        String missing = Files.notExists(WEB.resolve("node_modules/playwright-core")) ? "web/node_modules (npm ci in web/)"
                : PageRoutes.class.getClassLoader().getResource(PageRoutes.INDEX) == null ? "the built pages (npm run build in web/)"
                : !Files.isExecutable(CHROMIUM) ? "Chromium at " + CHROMIUM
                : null;
        if (missing != null && required) {
            throw new IllegalStateException("CHAN_WEB_E2E=required but " + missing + " is missing");
        }
        Assumptions.assumeTrue(missing == null, () -> "web end-to-end tests skipped: no " + missing);
    }
}
