package io.chanledger.api.marketplace.directory;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.chanledger.api.support.Http;
import io.chanledger.api.support.LedgerIntegrationTest;
import io.chanledger.projections.marketplace.ProviderDirectoryProjection;
import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpRequest;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.axonframework.config.EventProcessingConfiguration;
import org.axonframework.eventhandling.StreamingEventProcessor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * A command of the directory answers X-CHAN-Written-Through, and a read given it in
 * X-CHAN-Read-After shows the write, waiting for the directory's processor when it lags.
 */
class DirectoryReadYourWritesTest extends LedgerIntegrationTest {

    @Autowired
    private EventProcessingConfiguration processing;

    private MarketplaceFixture fixture;
    private MarketplaceFixture.Registered provider;

    @BeforeEach
    void register() {
        fixture = new MarketplaceFixture(baseUrl());
        provider = fixture.register(b -> { }, "ryw", null);
    }

    @AfterEach
    void stop() {
        fixture.close();
    }

    @Test
    void aReadWithTheTokenOfACommandSeesItsWriteAndOneWithoutAnswersAsBefore() {
        Http.Reply approved = Registrations.approve(baseUrl(), provider.id());
        assertThat(approved.status()).as(approved.body()).isEqualTo(200);
        String token = writtenThrough(approved);

        Http.Reply entry = read("/api/directory/providers/" + provider.id(), token);
        assertThat(entry.status()).as(entry.body()).isEqualTo(200);
        assertThat(entry.json().path("approval").path("state").asText()).isEqualTo("approved");
        assertThat(entry.raw().headers().firstValue("X-CHAN-Read-Behind")).isEmpty();
        Http.Reply directory = read("/api/directory/providers", token);
        assertThat(directory.status()).isEqualTo(200);
        assertThat(directory.raw().headers().firstValue("X-CHAN-Read-Behind")).isEmpty();

        Http.Reply untokened = Http.get(baseUrl() + "/api/directory/providers/" + provider.id());
        assertThat(untokened.status()).isEqualTo(200);
        assertThat(untokened.raw().headers().firstValue("X-CHAN-Read-Behind")).isEmpty();
    }

    @Test
    void aReadWaitsForTheDirectoryProcessorAndSaysWhenItIsStillBehind() throws Exception {
        StreamingEventProcessor processor = processing.eventProcessor(ProviderDirectoryProjection.PROCESSING_GROUP,
                StreamingEventProcessor.class).orElseThrow();
        processor.shutDown();
        try {
            Http.Reply scored = Registrations.admin(baseUrl(), "PUT",
                    "/api/admin/providers/" + provider.id() + "/score", "{\"score\": 0.25}");
            assertThat(scored.status()).as(scored.body()).isEqualTo(200);
            String token = writtenThrough(scored);

            // the processor stays stopped: after the bounded wait, the directory as it is, and said so
            Http.Reply behind = read("/api/directory/providers/" + provider.id(), token);
            assertThat(behind.status()).isEqualTo(200);
            assertThat(behind.raw().headers().firstValue("X-CHAN-Read-Behind")).contains("true");
            assertThat(scoreOf(behind.json())).isNull();

            // the processor starts while the read waits: the read answers the write
            CompletableFuture<Void> restart = CompletableFuture.runAsync(() -> {
                sleep(300);
                processor.start();
            });
            Http.Reply caughtUp = read("/api/directory/providers/" + provider.id(), token);
            restart.get(10, TimeUnit.SECONDS);
            assertThat(caughtUp.status()).isEqualTo(200);
            assertThat(caughtUp.raw().headers().firstValue("X-CHAN-Read-Behind")).isEmpty();
            assertThat(scoreOf(caughtUp.json())).isEqualByComparingTo("0.25");
        } finally {
            if (!processor.isRunning()) {
                processor.start();
            }
        }
    }

    @Test
    void aReadTokenThatIsNoGlobalIndexOfThisStoreIsRefused() {
        for (String token : new String[]{"abc", "-1", "1e3", "999999999999999999", "1,2"}) {
            Http.Reply reply = read("/api/directory/providers/" + provider.id(), token);
            ProviderRegistrationTest.assertProblem(reply, 400, "invalid_read_token", null);
            assertThat(reply.json().path("header").asText()).isEqualTo("X-CHAN-Read-After");
        }
        ProviderRegistrationTest.assertProblem(read("/api/directory/providers", "x"), 400, "invalid_read_token", null);
    }

    private static String writtenThrough(Http.Reply reply) {
        String token = reply.raw().headers().firstValue("X-CHAN-Written-Through").orElseThrow();
        assertThat(Long.parseLong(token)).isPositive();
        return token;
    }

    private Http.Reply read(String path, String token) {
        return Http.send(HttpRequest.newBuilder(URI.create(baseUrl() + path)).header("X-CHAN-Read-After", token).GET());
    }

    private static BigDecimal scoreOf(JsonNode entry) {
        return entry.path("score").isNumber() ? entry.path("score").decimalValue() : null;
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
