package io.chanledger.api.config;

import static io.chanledger.api.config.RoleContexts.assertGatewayNotFound;
import static io.chanledger.api.config.RoleContexts.assertProblemNotFound;
import static org.assertj.core.api.Assertions.assertThat;

import io.chanledger.api.provider.gateway.GatewayProperties;
import io.chanledger.api.marketplace.directory.MarketplaceProperties;
import io.chanledger.api.support.Http;
import io.chanledger.api.support.RoleInstance;
import io.chanledger.api.support.TestKeys;
import io.chanledger.api.ledger.wallet.WalletSigning;
import io.chanledger.chain.ingest.ChainListener;
import io.chanledger.domain.eip712.DigestSigner;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A marketplace ({@code chan.role=marketplace}, with the tests' settings, which switch the gateway
 * on): its own beans and routes and the shared ones, none of a provider's; its paths answer, a
 * provider's answer the service's 404 in their own error shape.
 */
class MarketplaceRoleTest {

    private static final String CHANNEL = "0x" + "ab".repeat(32);

    private static ConfigurableApplicationContext context;
    private static String base;

    @BeforeAll
    static void start() {
        context = RoleInstance.start(Role.MARKETPLACE, "chan_ledger_role_marketplace", Map.of());
        base = RoleInstance.baseUrl(context);
    }

    @AfterAll
    static void stop() {
        context.close();
    }

    @Test
    void aWalletSignatureToItNamesItsUrlAndNoProvider() {
        String url = context.getBean(MarketplaceProperties.class).url("");
        DigestSigner consumer = TestKeys.wallet("marketplace-role-consumer");
        String path = "/api/channels?consumer=" + consumer.address();
        long now = Instant.now().getEpochSecond();

        Http.Reply audience = Http.get(base + "/api/chan/audience");
        Http.Reply forIt = Http.send(WalletSigning.signedGet(base, url, path, consumer, now));
        Http.Reply forAProvider = Http.send(WalletSigning.signedGet(base, WalletSigning.PROVIDER, path, consumer, now));

        assertThat(audience.json().path("audience").asText()).isEqualTo(url);
        assertThat(forIt.status()).as(forIt.body()).isEqualTo(200);
        assertThat(forAProvider.status()).as(forAProvider.body()).isEqualTo(401);
        assertThat(forAProvider.json().path("code").asText()).isEqualTo("wallet_auth_wrong_signer");
        assertThat(forAProvider.json().path("audience").asText()).isEqualTo(url);
    }

    @Test
    void itHoldsTheMarketplacesBeansAndTheSharedOnesButNoProviders() {
        assertThat(RoleContexts.serviceBeans(context)).allSatisfy((bean, role) ->
                assertThat(role).as(bean).isNotEqualTo(Optional.of(Role.PROVIDER)));
        assertThat(context.getBeanNamesForType(GatewayProperties.class)).isEmpty();
        assertThat(context.getBeanNamesForType(MarketplaceProperties.class)).hasSize(1);
        assertThat(context.getBean(RoleProperties.class).role()).isEqualTo(Role.MARKETPLACE);
        assertThat(context.getBeanDefinitionNames())
                .contains("marketplaceCatalog", "providerDirectoryProjection", "validatorRegistry", "gasStation",
                        "gasGrantProjection", "skillCatalog", "pageRoutes")
                .contains("voucherAdmission", "channelController", "signingInfoController", "operatorHealthController",
                        "replayController", "walletAuthenticator")
                .doesNotContain("providerIdentity", "priceList", "paymentTerms", "paidAnswers",
                        "heldRequestRelease", "watchtower", "claimStore", "voucherController",
                        "providerDashboardController", "dashboardPage", "earningsProjection", "earningsTable");
        assertThat(context.getBeanNamesForType(ChainListener.class)).hasSize(1);
    }

    @Test
    void itRoutesTheMarketplacesPathsAndNoneOfAProviders() {
        assertThat(RoleContexts.routes(context))
                .contains("/api/mcp/providers", "/api/directory/providers", "/api/validator/registry",
                        "/api/feedback", "/api/telemetry", "/api/skills", "/api/gas-station", "/api/agent",
                        "/llms.txt", "/", "/console", "/become-a-provider")
                .contains("/api/chan/signing", "/api/channels", "/api/channels/{channelId}",
                        "/api/channels/{channelId}/events", "/api/audit/events", "/api/admin/health")
                .noneMatch(route -> route.startsWith("/v1/") || route.startsWith("/echo/") || route.startsWith("/demo/"))
                .doesNotContain("/api/channels/{channelId}/vouchers", "/api/provider/dashboard", "/dashboard");
    }

    @Test
    void itAnswersItsOwnPathsAndAProvidersWithA404InTheirShape() {
        assertThat(Http.get(base + "/api/mcp/providers").status()).isEqualTo(200);
        assertThat(Http.get(base + "/api/directory/providers").status()).isEqualTo(200);
        assertThat(Http.get(base + "/api/validator/registry").status()).isEqualTo(200);
        assertThat(Http.get(base + "/api/chan/signing").status()).isEqualTo(200);

        assertGatewayNotFound(Http.get(base + "/v1/pricing"));
        assertGatewayNotFound(Http.get(base + "/v1/models"));
        assertGatewayNotFound(Http.postJson(base + "/v1/chat/completions", "{\"model\":\"echo-1\",\"messages\":[]}"));
        assertGatewayNotFound(Http.postJson(base + "/v1/close-channel", "{\"channelId\":\"" + CHANNEL + "\"}"));
        assertProblemNotFound(Http.postJson(base + "/api/channels/" + CHANNEL + "/vouchers", "{}"));
        assertProblemNotFound(Http.postJson(base + "/demo/word-count", "{\"text\":\"a b\"}"));
        assertProblemNotFound(Http.get(base + "/api/provider/dashboard"));
        for (String page : new String[] {"/dashboard", "/dashboard/", "/dashboard/assets/index.js",
                "/provider-pages/dashboard.html", "/dashboard.html"}) {
            assertProblemNotFound(Http.get(base + page));
        }
    }

    @Test
    void aBrowserAtTheProvidersDashboardAddressGetsThePagesWhichSayWhereItIs() {
        Assumptions.assumeTrue(MarketplaceRoleTest.class.getClassLoader().getResource("static/index.html") != null,
                "the web pages are not built into this test run");
        for (String path : new String[] {"/dashboard", "/no/such/page"}) {
            Http.Reply page = RoleContexts.getAccepting(base + path, RoleContexts.BROWSER);
            assertThat(page.status()).as(path).isEqualTo(404);
            assertThat(page.contentType()).as(path).startsWith("text/html");
            assertThat(page.body()).as(path).contains("<div id=\"app\">").doesNotContain("/dashboard/assets/");
            assertProblemNotFound(RoleContexts.getAccepting(base + path, "application/json"));
        }
    }

    @Test
    void itsFreshDatabaseHoldsItsOwnTablesAndNoneOfTheProviders() {
        assertThat(RoleSchemas.tablesIn(context.getBean(DataSource.class)))
                .isEqualTo(RoleSchemas.tablesOf(Role.MARKETPLACE));
    }
}
