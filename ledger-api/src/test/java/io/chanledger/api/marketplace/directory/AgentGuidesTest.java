package io.chanledger.api.marketplace.directory;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.chanledger.api.config.ChainProperties;
import io.chanledger.api.config.ProtocolProperties;
import io.chanledger.api.support.ErrorCodes;
import io.chanledger.domain.provider.ModelPrice;
import io.chanledger.projections.marketplace.CatalogReader;
import io.chanledger.projections.marketplace.CatalogSnapshot;
import io.chanledger.projections.marketplace.MarketplaceCatalog;
import io.chanledger.projections.marketplace.ProviderRow;
import io.chanledger.projections.marketplace.ProviderView;
import java.math.BigInteger;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/**
 * {@code /llms.txt}, {@code /skill.md} and the compact provider list are written from the
 * deployment's configuration: two deployments that differ in their contract (and URL) say so.
 */
class AgentGuidesTest {

    private static final String CONTRACT_A = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
    private static final String CONTRACT_B = "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0";
    private static final String USDC = "0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359";
    private static final Instant T0 = Instant.parse("2026-11-21T10:00:00Z");

    private static MarketplaceProperties marketplace(String url) {
        return new Binder(new MapConfigurationPropertySource(Map.of("chan.marketplace.marketplace-url", url)))
                .bindOrCreate("chan.marketplace", Bindable.of(MarketplaceProperties.class));
    }

    private static ChainProperties chain(String contract) {
        return new ChainProperties(137, contract, USDC, null, null, null);
    }

    private static AgentGuides guides(String url, String contract) {
        return new AgentGuides(marketplace(url), chain(contract), new ProtocolProperties(200));
    }

    @Test
    void bothGuidesNameThisDeploymentsContractAndUrls() {
        AgentGuides a = guides("https://market.example", CONTRACT_A);
        AgentGuides b = guides("https://other.example/", CONTRACT_B);

        for (String text : List.of(a.llmsTxt(), a.skillMd())) {
            assertThat(text).contains(CONTRACT_A).doesNotContain(CONTRACT_B).contains("https://market.example/api/mcp/providers")
                    .contains("chainId " + 137).contains(USDC).doesNotContain("{{").doesNotContain("other.example");
        }
        for (String text : List.of(b.llmsTxt(), b.skillMd())) {
            assertThat(text).contains(CONTRACT_B).doesNotContain(CONTRACT_A).contains("https://other.example/api/mcp/providers")
                    .doesNotContain("market.example");
        }
        assertThat(a.skillMd()).contains("contract: " + CONTRACT_A.toLowerCase());
    }

    @Test
    void theSignedCloseIsTheTextTheServiceChecks() {
        String skill = guides("https://market.example", CONTRACT_A).skillMd();
        String block = skill.substring(skill.indexOf("     Chan API request"), skill.indexOf("     ```", skill.indexOf("     Chan API request")));
        List<String> names = block.lines().map(String::strip).filter(line -> !line.isEmpty())
                .map(line -> line.contains(":") ? line.substring(0, line.indexOf(':')) : line).toList();

        // the lines of WalletRequestMessage, in its order
        assertThat(names).containsExactly("Chan API request", "method", "path", "audience", "bodyHash", "address",
                "chainId", "contract", "timestamp", "nonce");
        assertThat(skill).contains("X-CHAN-Auth-Nonce");
    }

    @Test
    void llmsTxtFollowsTheConventionAndListsTheFiveSteps() {
        String text = guides("https://market.example", CONTRACT_A).llmsTxt();

        String[] lines = text.split("\n");
        assertThat(lines[0]).isEqualTo("# Chan Ledger marketplace");
        assertThat(lines[2]).startsWith("> ");
        assertThat(Pattern.compile("^## ", Pattern.MULTILINE).matcher(text).results().map(m -> text.substring(
                m.start(), text.indexOf('\n', m.start())))).containsExactly("## Workflow", "## Signing", "## Endpoints",
                "## Optional");
        for (int step = 1; step <= 5; step++) {
            assertThat(text).contains("\n" + step + ". ");
        }
        assertThat(text).doesNotContain("\n6. ");
        assertThat(text).contains("name \"ChanChannel\", version \"1\", chainId 137, verifyingContract " + CONTRACT_A)
                .contains("- [Agent guide](https://market.example/skill.md)")
                .contains("- [Providers](https://market.example/api/mcp/providers)")
                .contains("- [Feedback](https://market.example/api/feedback)");
    }

    @Test
    void theSkillHasFrontMatterAndEveryPartOfTheFlow() {
        String text = guides("https://market.example", CONTRACT_A).skillMd();

        assertThat(text).startsWith("---\nname: chan-marketplace\ndescription: ");
        assertThat(text.indexOf("\n---\n", 4)).isPositive();
        assertThat(text).contains("## 1. Discover a provider", "## 2. The 402 flow", "## 3. Open a channel",
                "## 4. Sign a voucher for every request", "## 5. Close the channel", "## 6. Errors and what to do");
        assertThat(text).contains("ceil(sum of the lengths of all messages' content / 4)",
                "`max_tokens` if you set it, else 500", "x 1.2 USDC", "inputPer1kTokens x 1.2 per request",
                "the previous voucher's amount + the estimate", "starting at 1", "= 11250 base units",
                "cooperativeClose(bytes32 channelId, uint256 finalAmount, bytes providerSignature)",
                "X-CHAN-Auth-Signature", "| protocol fee | 2% of what providers claim");
        for (String code : ErrorCodes.gateway()) {
            assertThat(text).contains("`" + code + "`");
        }
    }

    @Test
    void theCompactListKeepsWhatChoosingAndPayingNeedAndNamesTheContract() throws Exception {
        ObjectMapper mapper = new ObjectMapper().registerModule(new JavaTimeModule());
        for (String contract : List.of(CONTRACT_A, CONTRACT_B)) {
            ProviderResponses responses = new ProviderResponses(catalogOf(provider()), mapper,
                    marketplace("https://market.example"), chain(contract));
            ProviderQuery compact = ProviderQuery.parse(null, null, null, null, null, null, "compact");

            JsonNode body = mapper.readTree(responses.providers(compact).body());
            JsonNode full = mapper.readTree(responses.providers(ProviderQuery.DEFAULT).body());

            assertThat(body.path("_meta").path("contract").asText()).isEqualTo(contract);
            assertThat(body.path("_meta").path("protocol").asText()).isEqualTo("chan-v2");
            JsonNode entry = body.path("providers").get(0);
            assertThat(entry.fieldNames()).toIterable().containsExactly("id", "name", "category", "apiUrl",
                    "providerAddress", "protocol", "status", "models", "qualityScore");
            assertThat(entry.path("protocol").asText()).isEqualTo("chan");
            assertThat(entry.path("status").toString()).isEqualTo("{\"online\":true,\"latencyMs\":42}");
            assertThat(entry.path("models").toString()).isEqualTo(
                    "[{\"id\":\"chat-1\",\"pricing\":{\"inputPer1kTokens\":\"0.00375\",\"outputPer1kTokens\":\"0.015\"},"
                            + "\"price\":{\"kind\":\"tokens\",\"inputPer1kTokens\":\"3750\",\"outputPer1kTokens\":\"15000\"}}]");
            JsonNode fullEntry = full.path("providers").get(0);
            for (String path : List.of("/id", "/name", "/category", "/apiUrl", "/providerAddress", "/protocol",
                    "/status/online", "/status/latencyMs", "/models/0/id", "/models/0/pricing/inputPer1kTokens", "/models/0/price",
                    "/qualityScore")) {
                assertThat(entry.at(path)).as(path).isEqualTo(fullEntry.at(path));
            }
            assertThat(responses.providers(compact).body().length).isLessThan(responses.providers(ProviderQuery.DEFAULT)
                    .body().length);
        }
    }

    private static ProviderView provider() {
        ProviderRow row = ProviderRow.builder().providerId("prov-0123456789abcdef01234567")
                .address("0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed").name("Acme LLM")
                .description("Chat models, billed per token").apiUrl("https://llm.acme.example").category("llm")
                .additionalCategories(List.of("code")).tier("community").docsUrl("https://llm.acme.example/v1/docs")
                .registeredAt(T0).approval("approved").approvalChangedAt(T0).online(true).onlineChangedAt(T0)
                .modelsPublishedAt(T0).inferenceOnline(true).inferenceChangedAt(T0).build();
        return new ProviderView(row, List.of(new ModelPrice("chat-1", "Chat One", BigInteger.valueOf(3750),
                BigInteger.valueOf(15000))), new ProviderView.Health(T0, 42L, 0, null), null, List.of());
    }

    /** A catalog holding one snapshot, read without a database. */
    private static MarketplaceCatalog catalogOf(ProviderView... providers) {
        CatalogReader reader = new CatalogReader(null, 20, Duration.ofDays(7)) {
            @Override
            public long version() {
                return 1;
            }

            @Override
            public CatalogSnapshot read(long version, Instant builtAt) {
                return new CatalogSnapshot(version, builtAt, List.of(providers));
            }
        };
        MarketplaceCatalog catalog = new MarketplaceCatalog(reader, Clock.fixed(T0, ZoneOffset.UTC), Duration.ZERO,
                Duration.ofHours(1));
        catalog.refreshNow();
        return catalog;
    }
}
