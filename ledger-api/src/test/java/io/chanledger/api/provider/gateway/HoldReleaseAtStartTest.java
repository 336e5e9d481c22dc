package io.chanledger.api.provider.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.chanledger.api.LedgerApplication;
import io.chanledger.api.ledger.channels.command.ChannelHistory;
import io.chanledger.api.provider.ProviderIdentity;
import io.chanledger.api.support.AdminReads;
import io.chanledger.api.support.Channels;
import io.chanledger.api.support.TestDatabases;
import io.chanledger.api.support.TestKeys;
import io.chanledger.domain.channel.OpenChannel;
import io.chanledger.domain.channel.RequestSettled;
import io.chanledger.domain.channel.SignedVoucher;
import io.chanledger.domain.eip712.DigestSigner;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A request whose process went away between its hold and its settlement leaves the hold on its
 * channel; the next start of the service releases it (settled at zero), and the channel's read
 * model stops showing it as held. The service runs on a database of its own, started twice.
 */
class HoldReleaseAtStartTest {

    private static final DigestSigner CONSUMER = TestKeys.wallet("hold-release-consumer");

    private static ConfigurableApplicationContext start(String databaseUrl) {
        return new SpringApplicationBuilder(LedgerApplication.class)
                .profiles("postgres", "test")
                .run("--server.port=0", "--spring.datasource.url=" + databaseUrl,
                        "--spring.datasource.username=" + TestDatabases.USER,
                        "--spring.datasource.password=" + TestDatabases.PASSWORD);
    }

    private static String held(ConfigurableApplicationContext context, String channelId) {
        String base = "http://127.0.0.1:" + ((WebServerApplicationContext) context).getWebServer().getPort();
        return AdminReads.get(base + "/api/channels/" + channelId).json().path("held").asText();
    }

    @Test
    void theHoldOfARequestThatDiedWithItsProcessIsReleasedWhenTheServiceStartsAgain() {
        String databaseUrl = TestDatabases.recreate("chan_ledger_hold_release_test");
        String channelId = Channels.randomChannelId();
        try (ConfigurableApplicationContext first = start(databaseUrl)) {
            String provider = first.getBean(ProviderIdentity.class).address();
            first.getBean(CommandGateway.class).sendAndWait(new OpenChannel(channelId, CONSUMER.address(), provider,
                    BigInteger.valueOf(1_000_000), Instant.now().getEpochSecond() + 86_400, Channels.nextChainRef()));
            SignedVoucher voucher = SignedVoucher.parse(channelId, "100000", "1",
                    Channels.sign(CONSUMER, channelId, BigInteger.valueOf(100_000), BigInteger.ONE));
            // admitted as the gateway admits a request, which then never reaches its settlement
            first.getBean(Metering.class).admit(voucher, BigInteger.valueOf(2_000), "echo-1");
            await("the read model to show the hold").atMost(Duration.ofSeconds(20))
                    .until(() -> held(first, channelId).equals("2000"));
        }

        // instances' clocks may differ by the release's margin: a hold taken within it of the next
        // start could be a request of that instance, so the next start waits until it has passed
        pause(HeldRequestRelease.CLOCK_MARGIN.plusSeconds(2));
        try (ConfigurableApplicationContext second = start(databaseUrl)) {
            await("the hold to be released at start-up").atMost(Duration.ofSeconds(30))
                    .until(() -> held(second, channelId).equals("0"));
            ChannelHistory history = second.getBean(ChannelHistory.class);
            assertThat(history.state(channelId).orElseThrow().holds()).isEmpty();
            assertThat(history.state(channelId).orElseThrow().chargedTotal()).isZero();
            assertThat(history.events(channelId).stream().map(e -> e.getPayload()))
                    .filteredOn(RequestSettled.class::isInstance).singleElement()
                    .satisfies(e -> assertThat(((RequestSettled) e).charged()).isZero());
        }
    }

    private static void pause(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
