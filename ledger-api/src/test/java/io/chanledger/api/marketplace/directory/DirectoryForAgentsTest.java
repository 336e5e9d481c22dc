package io.chanledger.api.marketplace.directory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.chanledger.api.support.Channels;
import io.chanledger.api.support.Http;
import io.chanledger.api.support.LedgerIntegrationTest;
import io.chanledger.testsupport.Devnet;
import io.chanledger.domain.channel.CloseKind;
import io.chanledger.domain.channel.RecordClaim;
import io.chanledger.domain.channel.RecordClose;
import io.chanledger.domain.eip712.DigestSigner;
import io.chanledger.domain.eip712.Hex;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * What the deployed agent client calls besides the provider list, with its exact requests:
 * {@code GET /api/directory/config}, {@code GET /api/channels/status?channelId=0x…} and
 * {@code GET /api/directory/models[?model=]}; {@code /api/directory/pricing} stays unanswered.
 */
class DirectoryForAgentsTest extends LedgerIntegrationTest {

    private static final BigInteger DEPOSIT = BigInteger.valueOf(5_000_000);

    @Autowired
    CommandGateway commands;

    @Test
    void theConfigIsTheFeeRecipientAndRateTheListenerRecorded() {
        JsonNode config = await().atMost(Duration.ofSeconds(20)).until(
                () -> Http.get(baseUrl() + "/api/directory/config").json(), c -> !c.path("feeWallet").isNull());

        assertThat(config.path("feeWallet").asText()).isEqualTo(Hex.toChecksumAddress(Devnet.FEE_RECIPIENT));
        assertThat(config.path("feeBps").isIntegralNumber()).isTrue();
        assertThat(config.path("feeBps").asLong()).isEqualTo(devnet().feeBps().longValueExact());
    }

    @Test
    void aChannelsStatusShowsItsOnChainFactsOnly() {
        DigestSigner consumer = Registrations.newWallet("status");
        DigestSigner provider = Registrations.newWallet("status");
        long expiry = Instant.now().plus(Duration.ofDays(1)).getEpochSecond();
        String channelId = Channels.open(commands, consumer, provider, DEPOSIT, expiry);
        Http.Reply voucher = Http.postJson(baseUrl() + "/api/channels/" + channelId + "/vouchers",
                Channels.voucherJson(consumer, channelId, 300_000, 1));
        assertThat(voucher.status()).as(voucher.body()).isEqualTo(200);
        commands.sendAndWait(new RecordClaim(channelId, BigInteger.valueOf(200_000), BigInteger.valueOf(4_000),
                Channels.nextChainRef()));

        Http.Reply reply = Http.get(baseUrl() + "/api/channels/status?channelId=" + channelId);

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        JsonNode status = reply.json();
        assertThat(status.path("channelId").asText()).isEqualTo(channelId);
        assertThat(status.path("consumer").asText()).isEqualTo(Hex.toChecksumAddress(consumer.address()));
        assertThat(status.path("provider").asText()).isEqualTo(Hex.toChecksumAddress(provider.address()));
        assertThat(status.path("deposit").asText()).isEqualTo("5000000");
        assertThat(status.path("claimed").asText()).isEqualTo("200000");
        assertThat(status.path("expiryEpochSeconds").asLong()).isEqualTo(expiry);
        assertThat(status.path("expiry").asText()).isEqualTo(Instant.ofEpochSecond(expiry).toString());
        assertThat(status.path("status").asText()).isEqualTo("open");
        assertThat(status.path("open").asBoolean()).isTrue();
        assertThat(status.path("expired").asBoolean()).isFalse();
        assertThat(status.path("closed").asBoolean()).isFalse();
        List<String> members = new ArrayList<>();
        status.fieldNames().forEachRemaining(members::add);
        assertThat(members).containsExactlyInAnyOrder("channelId", "consumer", "provider", "deposit", "claimed",
                "expiry", "expiryEpochSeconds", "status", "open", "expired", "closed", "provisional");
        assertThat(reply.body()).as("nothing of the voucher").doesNotContain("300000");
    }

    @Test
    void aChannelPastItsExpiryIsExpiredAndAClosedOneClosed() {
        DigestSigner consumer = Registrations.newWallet("status");
        DigestSigner provider = Registrations.newWallet("status");
        String expiredId = Channels.open(commands, consumer, provider, DEPOSIT, Instant.now().getEpochSecond() - 60);
        String closedId = Channels.open(commands, consumer, provider, DEPOSIT,
                Instant.now().plus(Duration.ofDays(1)).getEpochSecond());
        commands.sendAndWait(new RecordClose(closedId, DEPOSIT, CloseKind.AFTER_EXPIRY, Channels.nextChainRef()));

        JsonNode expired = Http.get(baseUrl() + "/api/channels/status?channelId=" + expiredId).json();
        JsonNode closed = Http.get(baseUrl() + "/api/channels/status?channelId=" + closedId.toUpperCase()
                .replace("0X", "0x")).json();

        assertThat(expired.path("status").asText()).isEqualTo("expired");
        assertThat(expired.path("expired").asBoolean()).isTrue();
        assertThat(expired.path("open").asBoolean()).isFalse();
        assertThat(closed.path("status").asText()).isEqualTo("closed");
        assertThat(closed.path("closed").asBoolean()).isTrue();
        assertThat(closed.path("channelId").asText()).isEqualTo(closedId);
    }

    @Test
    void aStatusRequestWithoutAValidKnownChannelIsA4xx() {
        ProviderRegistrationTest.assertProblem(Http.get(baseUrl() + "/api/channels/status"), 400, "invalid_parameter",
                null);
        ProviderRegistrationTest.assertProblem(Http.get(baseUrl() + "/api/channels/status?channelId=0x12"), 400,
                "invalid_channel_id", null);
        ProviderRegistrationTest.assertProblem(Http.get(baseUrl() + "/api/channels/status?channelId="
                + Channels.randomChannelId()), 404, "channel_not_found", null);
    }

    @Test
    void eachModelIsListedWithItsSellersCheapestFirst() {
        try (MarketplaceFixture fixture = new MarketplaceFixture(baseUrl())) {
            String chat = fixture.token + "-chat";
            String fetch = fixture.token + "-fetch";
            MarketplaceFixture.Registered dear = fixture.register(s -> s.price(chat, "Chat", "0.002", "0.008"),
                    b -> b.put("name", "Dear"));
            MarketplaceFixture.Registered cheap = fixture.register(s -> s.price(chat, "Chat", "0.0001", "0.0004")
                    .price(fetch, "Fetch", "0.01", "0"), b -> b.put("name", "Cheap"));
            MarketplaceFixture.Registered middle = fixture.register(s -> s.price(chat, "Chat (fast)", "0.0005", "0.001"),
                    b -> b.put("name", "Middle"));
            MarketplaceFixture.Registered pending = fixture.register(s -> s.price(chat, "Chat", "0.00001", "0.00001"),
                    b -> b.put("name", "Pending"));
            for (MarketplaceFixture.Registered provider : List.of(dear, cheap, middle)) {
                fixture.approve(provider);
                fixture.awaitEntry(provider, e -> e.path("status").path("online").asBoolean());
            }

            Http.Reply reply = Http.get(baseUrl() + "/api/directory/models?model=" + fixture.token);

            assertThat(reply.status()).as(reply.body()).isEqualTo(200);
            JsonNode models = reply.json().path("models");
            assertThat(reply.json().path("count").asInt()).isEqualTo(2);
            assertThat(models.get(0).path("id").asText()).isEqualTo(chat);
            assertThat(models.get(0).path("providers")).extracting(p -> p.path("providerId").asText())
                    .containsExactly(cheap.id(), middle.id(), dear.id());
            JsonNode cheapest = models.get(0).path("providers").get(0);
            assertThat(cheapest.path("name").asText()).isEqualTo("Cheap");
            assertThat(cheapest.path("apiUrl").asText()).isEqualTo(cheap.stub().url());
            assertThat(cheapest.path("providerAddress").asText()).isEqualTo(Hex.toChecksumAddress(cheap.wallet().address()));
            assertThat(cheapest.path("online").asBoolean()).isTrue();
            assertThat(cheapest.path("pricing").path("inputPer1kTokens").asText()).isEqualTo("0.0001");
            assertThat(cheapest.path("pricing").path("outputPer1kTokens").asText()).isEqualTo("0.0004");
            assertThat(models.get(0).path("providers").get(1).path("modelName").asText()).isEqualTo("Chat (fast)");
            assertThat(models.get(1).path("id").asText()).isEqualTo(fetch);
            assertThat(models.get(1).path("providers").get(0).path("pricing").path("perRequest").asText())
                    .isEqualTo("0.01");
            assertThat(reply.body()).as("not approved").doesNotContain(pending.id());

            JsonNode onlyFetch = Http.get(baseUrl() + "/api/directory/models?model=" + fixture.token.toUpperCase()
                    + "-FETCH").json();
            assertThat(onlyFetch.path("models")).extracting(m -> m.path("id").asText()).containsExactly(fetch);
            ProviderRegistrationTest.assertProblem(Http.get(baseUrl() + "/api/directory/models?online=maybe"), 400,
                    "invalid_parameter", null);
        }
    }

    @Test
    void upstreamVendorsReferencePricesAreNotServed() {
        Http.Reply reply = Http.get(baseUrl() + "/api/directory/pricing?provider=openai");

        assertThat(reply.status()).isEqualTo(404);
    }
}
