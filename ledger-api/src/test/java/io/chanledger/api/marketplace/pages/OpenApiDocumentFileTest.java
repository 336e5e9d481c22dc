package io.chanledger.api.marketplace.pages;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.chanledger.api.support.Http;
import io.chanledger.api.support.LedgerIntegrationTest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The web pages' TypeScript types are generated from {@code web/openapi.json} when they are built
 * (without a running service), so that file must be the service's own {@code /v3/api-docs}. This
 * test writes the document there, and fails when what was committed differed: an API change
 * then fails the build until the new document, and the pages built against it, are committed.
 */
class OpenApiDocumentFileTest extends LedgerIntegrationTest {

    private static final Path COMMITTED = Path.of("..", "web", "openapi.json").toAbsolutePath().normalize();
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    @Test
    void theWebPagesCopyOfTheOpenApiDocumentIsTheServicesOwn() throws Exception {
        Http.Reply reply = Http.get(baseUrl() + "/v3/api-docs");
        assertThat(reply.status()).isEqualTo(200);
        ObjectNode served = (ObjectNode) reply.json();
        served.remove("servers");
        String document = JSON.writeValueAsString(canonical(served)) + "\n";

        String committed = Files.exists(COMMITTED) ? Files.readString(COMMITTED, StandardCharsets.UTF_8) : "";
        if (!committed.equals(document)) {
            Files.writeString(COMMITTED, document, StandardCharsets.UTF_8);
        }
        assertThat(committed.equals(document))
                .as("web/openapi.json differed from the service's /v3/api-docs and has been rewritten:"
                        + " rebuild the web pages against it and commit it")
                .isTrue();
    }

    @Test
    void channelEventsAreTypedByTheirTypeWithAmountsAsDecimalStrings() {
        JsonNode schemas = Http.get(baseUrl() + "/v3/api-docs").json().path("components").path("schemas");

        JsonNode event = schemas.path("ChannelEvent");
        assertThat(event.path("discriminator").path("propertyName").asText()).isEqualTo("type");
        assertThat(event.path("discriminator").path("mapping").path("ChannelClaimed").asText())
                .isEqualTo("#/components/schemas/ChannelClaimedEvent");
        JsonNode claimedEvent = schemas.path("ChannelClaimedEvent").path("properties");
        assertThat(claimedEvent.path("type").path("enum").get(0).asText()).isEqualTo("ChannelClaimed");
        assertThat(claimedEvent.path("payload").path("$ref").asText()).isEqualTo("#/components/schemas/ChannelClaimed");
        JsonNode claimed = schemas.path("ChannelClaimed").path("properties");
        for (String amount : List.of("payout", "fee", "totalClaimed")) {
            assertThat(claimed.path(amount).path("type").asText()).as(amount).isEqualTo("string");
            assertThat(claimed.path(amount).path("pattern").asText()).as(amount).isEqualTo("^[0-9]+$");
        }
        assertThat(schemas.path("ExcessReturned").path("properties").has("amount")).isTrue();
    }

    @Test
    void membersAreRequiredUnlessTheyMayBeNullAndAreThenLeftOut() {
        JsonNode schemas = Http.get(baseUrl() + "/v3/api-docs").json().path("components").path("schemas");

        // a channel's on-chain members are always written; the off-chain ones are @Nullable and left out when null
        List<String> channel = names(schemas.path("ChannelResponse").path("required"));
        assertThat(channel).contains("channelId", "deposit", "claimed", "expiryEpochSeconds", "provisional")
                .doesNotContain("chargedTotal", "held", "highestVoucher");
        // a model a @Nullable member refers to is still an object, with its own members required
        assertThat(schemas.path("Voucher").path("type").asText()).isEqualTo("object");
        assertThat(names(schemas.path("Voucher").path("required"))).contains("amount", "nonce", "signature");
        // a record that writes its nulls: every member is there, those that may be null say so
        assertThat(names(schemas.path("DirectoryProvider").path("required"))).contains("id", "approval", "qualityScore");
        assertThat(names(schemas.path("DirectoryProvider").path("properties").path("qualityScore").path("type")))
                .containsExactlyInAnyOrder("number", "null");
        assertThat(names(schemas.path("ReplayStatus").path("required"))).containsExactly("state");
    }

    private static List<String> names(JsonNode array) {
        List<String> names = new ArrayList<>();
        array.forEach(name -> names.add(name.asText()));
        return names;
    }

    /**
     * The document with object members in name order, so that the file changes only when the API
     * does. ({@code servers}, which holds this run's random port, is removed before.)
     */
    private static JsonNode canonical(JsonNode node) {
        if (node instanceof ObjectNode object) {
            ObjectNode sorted = JSON.createObjectNode();
            List<String> names = new ArrayList<>();
            object.fieldNames().forEachRemaining(names::add);
            names.stream().sorted().forEach(name -> sorted.set(name, canonical(object.get(name))));
            return sorted;
        }
        if (node instanceof ArrayNode array) {
            ArrayNode copy = JSON.createArrayNode();
            array.forEach(item -> copy.add(canonical(item)));
            return copy;
        }
        return node;
    }
}
