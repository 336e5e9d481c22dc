package io.chanledger.api.marketplace.directory;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.chanledger.api.support.Http;
import io.chanledger.api.support.LedgerIntegrationTest;
import java.net.URI;
import org.junit.jupiter.api.Test;

class DiscoveryEndpointsTest extends LedgerIntegrationTest {

    private static final String CONTRACT = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
    private static final String USDC = "0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359";

    @Test
    void theAgentDocumentHasEveryFieldOfTheSpecAndLinksThisDeployment() {
        Http.Reply reply = Http.get(baseUrl() + "/api/agent");

        assertThat(reply.status()).isEqualTo(200);
        JsonNode agent = reply.json();
        assertThat(agent.fieldNames()).toIterable()
                .containsExactly("name", "purpose", "quick_start", "endpoints", "contract", "sdk");
        assertThat(agent.path("name").asText()).isNotBlank();
        assertThat(agent.path("purpose").asText()).isNotBlank();
        assertThat(agent.path("quick_start").asText()).contains("/api/mcp/providers");
        assertThat(agent.path("contract").asText()).isEqualTo(CONTRACT);
        assertThat(agent.path("sdk").isTextual()).isTrue();
        JsonNode endpoints = agent.path("endpoints");
        assertThat(endpoints.path("providers").asText()).isEqualTo("http://localhost:8080/api/mcp/providers");
        assertThat(endpoints.path("docs").asText()).isEqualTo("http://localhost:8080/swagger-ui/index.html");
        assertThat(endpoints.path("openapi").asText()).isEqualTo("http://localhost:8080/v3/api-docs");
        assertThat(endpoints.path("llmsTxt").asText()).isEqualTo("http://localhost:8080/llms.txt");
        assertThat(endpoints.path("skill").asText()).isEqualTo("http://localhost:8080/skill.md");
        ConditionalGets.assertRoundTrip(baseUrl() + "/api/agent", "max-age=3600, public");
    }

    @Test
    void theOpenApiDocumentTheAgentDocumentLinksDescribesEveryMarketplaceEndpoint() {
        String openapi = URI.create(Http.get(baseUrl() + "/api/agent").json().path("endpoints").path("openapi").asText())
                .getPath();

        Http.Reply reply = Http.get(baseUrl() + openapi);

        assertThat(reply.status()).isEqualTo(200);
        JsonNode document = reply.json();
        assertThat(document.path("openapi").asText()).startsWith("3.");
        JsonNode paths = document.path("paths");
        assertThat(paths.path("/api/mcp/providers").path("get").path("parameters")).extracting(p -> p.path("name").asText())
                .contains("category", "model", "tier", "minScore", "limit", "online");
        assertThat(paths.path("/api/validator/registry").has("get")).isTrue();
        assertThat(paths.path("/api/agent").has("get")).isTrue();
        assertThat(paths.path("/api/directory/providers").has("get")).isTrue();
        assertThat(paths.path("/api/directory/providers").has("post")).isTrue();
        assertThat(paths.path("/api/directory/providers/{providerId}").has("get")).isTrue();
        assertThat(paths.path("/api/skills").has("get")).isTrue();
        assertThat(paths.path("/api/skills/{slug}").has("get")).isTrue();
        assertThat(paths.path("/api/skills/{slug}").has("put")).isTrue();
        assertThat(paths.path("/api/chan/signing").has("get")).isTrue();
        assertThat(paths.path("/api/mcp/providers").path("get").path("parameters")).extracting(p -> p.path("name").asText())
                .contains("format");
        assertThat(paths.path("/api/feedback").has("post")).isTrue();
        assertThat(paths.path("/api/telemetry").has("post")).isTrue();
        assertThat(paths.path("/api/validator/probe-alert").has("post")).isTrue();
        assertThat(paths.path("/llms.txt").has("get")).isTrue();
        assertThat(paths.path("/skill.md").has("get")).isTrue();
        assertThat(paths.path("/api/admin/providers/{providerId}/approve").has("post")).isTrue();
        assertThat(paths.path("/api/admin/providers/{providerId}/suspend").has("post")).isTrue();
        assertThat(paths.path("/api/admin/providers/{providerId}/score").has("put")).isTrue();
        JsonNode schemas = document.path("components").path("schemas");
        assertThat(schemas.path("ProvidersResponse").path("properties").fieldNames()).toIterable()
                .contains("version", "count", "timestamp", "providers", "_filters", "_meta");
        assertThat(schemas.path("Miner").path("properties").has("modelCount")).isTrue();
        assertThat(Http.get(baseUrl() + "/swagger-ui/index.html").status()).isEqualTo(200);
    }

    @Test
    void theGuidesForAgentsAreServedAsTextFromThisDeploymentsConfigurationAndLinkedFromTheAgentDocument() {
        JsonNode endpoints = Http.get(baseUrl() + "/api/agent").json().path("endpoints");
        Http.Reply llms = Http.get(baseUrl() + URI.create(endpoints.path("llmsTxt").asText()).getPath());
        Http.Reply skill = Http.get(baseUrl() + URI.create(endpoints.path("skill").asText()).getPath());

        assertThat(llms.status()).isEqualTo(200);
        assertThat(llms.contentType()).isEqualTo("text/plain;charset=UTF-8");
        assertThat(llms.body()).startsWith("# ").contains("verifyingContract " + CONTRACT)
                .contains("http://localhost:8080/api/mcp/providers").contains("(http://localhost:8080/skill.md)");
        assertThat(skill.status()).isEqualTo(200);
        assertThat(skill.contentType()).isEqualTo("text/markdown;charset=UTF-8");
        assertThat(skill.body()).startsWith("---\nname: chan-marketplace\n").contains(CONTRACT).contains(USDC)
                .contains("## 4. Sign a voucher for every request");
        ConditionalGets.assertRoundTrip(baseUrl() + "/llms.txt", "max-age=3600, public");
        ConditionalGets.assertRoundTrip(baseUrl() + "/skill.md", "max-age=3600, public");
    }

    @Test
    void theSigningInformationHasTheStructureOfTheSpec() {
        Http.Reply reply = Http.get(baseUrl() + "/api/chan/signing");

        assertThat(reply.status()).isEqualTo(200);
        JsonNode signing = reply.json();
        assertThat(signing.fieldNames()).toIterable().containsExactly("eip712Domain", "voucherTypes",
                "closeAuthorizationTypes", "providerEndpoints", "contracts", "network");
        JsonNode domain = signing.path("eip712Domain");
        assertThat(domain.path("name").asText()).isEqualTo("ChanChannel");
        assertThat(domain.path("version").asText()).isEqualTo("1");
        assertThat(domain.path("chainId").isIntegralNumber()).isTrue();
        assertThat(domain.path("chainId").asLong()).isEqualTo(137);
        assertThat(domain.path("verifyingContract").asText()).isEqualTo(CONTRACT);
        assertThat(signing.path("voucherTypes").path("Voucher").toString()).isEqualTo(
                "[{\"name\":\"channelId\",\"type\":\"bytes32\"},{\"name\":\"amount\",\"type\":\"uint256\"},"
                        + "{\"name\":\"nonce\",\"type\":\"uint256\"}]");
        assertThat(signing.path("closeAuthorizationTypes").path("CloseAuthorization").toString()).isEqualTo(
                "[{\"name\":\"channelId\",\"type\":\"bytes32\"},{\"name\":\"finalAmount\",\"type\":\"uint256\"}]");
        JsonNode endpoints = signing.path("providerEndpoints");
        assertThat(endpoints.path("chat").asText()).isEqualTo("/v1/chat/completions");
        assertThat(endpoints.path("chatVoucherHeader").asText()).isEqualTo("X-CHAN-Voucher");
        assertThat(endpoints.path("cooperativeClose").asText()).isEqualTo("/v1/close-channel");
        assertThat(endpoints.path("pricing").asText()).isEqualTo("/v1/pricing");
        assertThat(endpoints.path("models").asText()).isEqualTo("/v1/models");
        assertThat(signing.path("contracts").path("channel").asText()).isEqualTo(CONTRACT);
        assertThat(signing.path("contracts").path("usdc").asText()).isEqualTo(USDC);
        assertThat(signing.path("network").path("name").asText()).isEqualTo("Polygon Mainnet");
        assertThat(signing.path("network").path("chainId").asLong()).isEqualTo(137);
        assertThat(reply.body()).doesNotContain("settle");
        ConditionalGets.assertRoundTrip(baseUrl() + "/api/chan/signing", "max-age=3600, public");
    }
}
