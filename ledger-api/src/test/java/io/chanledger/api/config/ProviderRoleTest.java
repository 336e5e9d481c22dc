package io.chanledger.api.config;

import static io.chanledger.api.config.RoleContexts.assertProblemNotFound;
import static org.assertj.core.api.Assertions.assertThat;

import io.chanledger.api.provider.gateway.GatewayProperties;
import io.chanledger.api.marketplace.directory.MarketplaceProperties;
import io.chanledger.api.support.Http;
import io.chanledger.api.support.RoleInstance;
import io.chanledger.api.provider.watchtower.Watchtower;
import io.chanledger.chain.ingest.ChainListener;
import java.util.Map;
import java.util.Optional;
import javax.sql.DataSource;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A provider ({@code chan.role=provider}): the gateway, its ledger and watchtower and the shared
 * beans, none of the marketplace's; its paths answer, the marketplace's (web pages included) answer
 * the service's 404 in their error shape.
 */
class ProviderRoleTest {

    private static ConfigurableApplicationContext context;
    private static String base;

    @BeforeAll
    static void start() {
        context = RoleInstance.start(Role.PROVIDER, "chan_ledger_role_provider", Map.of());
        base = RoleInstance.baseUrl(context);
    }

    @AfterAll
    static void stop() {
        context.close();
    }

    @Test
    void itHoldsAProvidersBeansAndTheSharedOnesButNoMarketplaces() {
        assertThat(RoleContexts.serviceBeans(context)).allSatisfy((bean, role) ->
                assertThat(role).as(bean).isNotEqualTo(Optional.of(Role.MARKETPLACE)));
        assertThat(context.getBeanNamesForType(MarketplaceProperties.class)).isEmpty();
        assertThat(context.getBeanNamesForType(GatewayProperties.class)).hasSize(1);
        assertThat(context.getBean(RoleProperties.class).role()).isEqualTo(Role.PROVIDER);
        assertThat(context.getBeanNamesForType(Watchtower.class)).hasSize(1);
        assertThat(context.getBeanNamesForType(ChainListener.class)).hasSize(1);
        assertThat(context.getBeanDefinitionNames())
                .contains("providerIdentity", "priceList", "paymentTerms", "paidAnswers", "heldRequestRelease",
                        "claimStore", "voucherController", "providerDashboardController", "dashboardPage",
                        "earningsProjection", "earningsTable")
                .contains("voucherAdmission", "channelController", "signingInfoController", "operatorHealthController",
                        "replayController", "walletAuthenticator")
                .doesNotContain("marketplaceCatalog", "providerDirectoryProjection", "providerAggregateModule",
                        "validatorRegistry", "gasStation", "gasGrantProjection", "gasGrantAggregateModule",
                        "skillCatalog", "pageRoutes", "staticAssets");
    }

    @Test
    void itRoutesAProvidersPathsAndNoneOfTheMarketplaces() {
        assertThat(RoleContexts.routes(context))
                .contains("/v1/chat/completions", "/v1/pricing", "/v1/models", "/v1/docs", "/v1/close-channel",
                        "/api/channels/{channelId}/vouchers", "/api/providers/{address}/claimable",
                        "/api/provider/dashboard", "/dashboard")
                .contains("/api/chan/signing", "/api/channels", "/api/channels/{channelId}/events",
                        "/api/audit/events", "/api/admin/health", "/api/admin/replay")
                .noneMatch(route -> route.startsWith("/api/directory") || route.startsWith("/api/mcp")
                        || route.startsWith("/api/validator") || route.startsWith("/api/skills")
                        || route.startsWith("/api/admin/providers"))
                .doesNotContain("/", "/console", "/become-a-provider", "/api/gas-station", "/api/feedback",
                        "/api/telemetry", "/api/agent", "/llms.txt", "/skill.md", "/api/web/settings");
    }

    @Test
    void itAnswersItsOwnPathsAndTheMarketplacesWithA404InTheirShape() {
        Http.Reply pricing = Http.get(base + "/v1/pricing");
        assertThat(pricing.status()).as(pricing.body()).isEqualTo(200);
        assertThat(pricing.json().path("models").has("echo-1")).isTrue();
        assertThat(Http.get(base + "/v1/models").status()).isEqualTo(200);
        assertThat(Http.get(base + "/api/chan/signing").status()).isEqualTo(200);
        Http.Reply unpaid = Http.postJson(base + "/v1/chat/completions",
                "{\"model\":\"echo-1\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
        assertThat(unpaid.status()).as(unpaid.body()).isEqualTo(402);
        assertThat(unpaid.raw().headers().firstValue("X-Payment-Signing")).contains(base + "/api/chan/signing");

        Http.Reply dashboard = Http.get(base + "/api/provider/dashboard");
        assertThat(dashboard.status()).as(dashboard.body()).isEqualTo(401);
        assertThat(dashboard.json().path("code").asText()).isEqualTo("wallet_auth_required");

        assertProblemNotFound(Http.get(base + "/api/mcp/providers"));
        assertProblemNotFound(Http.get(base + "/api/web/settings"));
        assertProblemNotFound(Http.get(base + "/api/directory/providers"));
        assertProblemNotFound(Http.postJson(base + "/api/directory/providers", "{}"));
        assertProblemNotFound(Http.get(base + "/api/validator/registry"));
        assertProblemNotFound(Http.postJson(base + "/api/gas-station", "{}"));
        assertProblemNotFound(Http.get(base + "/api/skills"));
        assertProblemNotFound(Http.get(base + "/api/agent"));
        for (String page : new String[] {"/", "/console", "/become-a-provider", "/index.html", "/llms.txt",
                "/channels", "/my-channels", "/skills", "/providers/x", "/assets/index.js"}) {
            assertProblemNotFound(Http.get(base + page));
        }
    }

    @Test
    void aBrowserAtItsRootOrAnyAddressThatIsNoPageGetsThePageThatPointsToTheDashboard() {
        Http.Reply dashboard = Http.get(base + "/dashboard");
        Assumptions.assumeTrue(dashboard.status() == 200, () -> "the dashboard page is not built: " + dashboard.body());

        for (String path : new String[] {"/", "/console", "/providers/x", "/no/such/page"}) {
            Http.Reply page = RoleContexts.getAccepting(base + path, RoleContexts.BROWSER);
            assertThat(page.status()).as(path).isEqualTo(404);
            assertThat(page.contentType()).as(path).startsWith("text/html");
            assertThat(page.body()).as(path).contains("href=\"/dashboard\"", "href=\"/v1/docs\"")
                    .doesNotContain("<script");
            assertThat(page.raw().headers().firstValue("Content-Security-Policy")).as(path).get().asString()
                    .contains("connect-src 'self';");
            Matcher style = Pattern.compile("href=\"(/dashboard/assets/[^\"]+\\.css)\"").matcher(page.body());
            assertThat(style.find()).as(page.body()).isTrue();
            assertThat(Http.get(base + style.group(1)).status()).isEqualTo(200);
            assertProblemNotFound(RoleContexts.getAccepting(base + path, "application/json"));
            assertProblemNotFound(Http.get(base + path));
        }
    }

    @Test
    void itsFreshDatabaseHoldsItsOwnTablesAndNoneOfTheMarketplaces() {
        assertThat(RoleSchemas.tablesIn(context.getBean(DataSource.class)))
                .isEqualTo(RoleSchemas.tablesOf(Role.PROVIDER));
    }

    @Test
    void itServesItsDashboardPageAndItsAssetsWhenTheBuildHasThem() {
        Http.Reply page = Http.get(base + "/dashboard");
        Assumptions.assumeTrue(page.status() == 200, () -> "the dashboard page is not built: " + page.body());

        assertThat(page.contentType()).startsWith("text/html");
        assertThat(page.raw().headers().firstValue("Content-Security-Policy")).get().asString()
                .contains("connect-src 'self';");
        Matcher script = Pattern.compile("src=\"(/dashboard/assets/[^\"]+\\.js)\"").matcher(page.body());
        assertThat(script.find()).as(page.body()).isTrue();
        Http.Reply asset = Http.get(base + script.group(1));
        assertThat(asset.status()).isEqualTo(200);
        assertThat(asset.raw().headers().firstValue("Cache-Control")).get().asString().contains("immutable");
        assertProblemNotFound(Http.get(base + "/dashboard/assets/missing.js"));
    }
}
