package io.chanledger.api.marketplace.pages;

import static org.assertj.core.api.Assertions.assertThat;

import io.chanledger.api.support.Http;
import io.chanledger.api.support.LedgerIntegrationTest;
import java.net.URI;
import java.net.http.HttpRequest;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The pages' routes answer the single-page application, the API's addresses keep their own
 * answers, and hashed assets are cached for good while index.html is revalidated.
 */
class PageRoutesTest extends LedgerIntegrationTest {

    private static boolean pagesBuilt() {
        return PageRoutes.class.getClassLoader().getResource(PageRoutes.INDEX) != null;
    }

    @Test
    void everyPageRouteAnswersTheApplicationRevalidatedEachTime() {
        Assumptions.assumeTrue(pagesBuilt(), "the web pages are not built into this test run");
        for (String path : new String[] {"/", "/providers/prov-1", "/skills", "/skills/compare-sources",
                "/become-a-provider", "/console", "/channels", "/channels/0x" + "ab".repeat(32), "/my-channels"}) {
            Http.Reply reply = Http.get(baseUrl() + path);
            assertThat(reply.status()).as(path).isEqualTo(200);
            assertThat(reply.contentType()).as(path).startsWith("text/html");
            assertThat(reply.raw().headers().firstValue("Cache-Control")).as(path).contains("no-cache");
            assertThat(reply.body()).as(path).contains("<div id=\"app\">");
            assertThat(reply.raw().headers().firstValue("Content-Security-Policy")).as(path)
                    .hasValueSatisfying(csp -> assertThat(csp).contains("script-src 'self'", "frame-ancestors 'none'"));
        }
    }

    @Test
    void hashedAssetsAreCachedForAYear() {
        Assumptions.assumeTrue(pagesBuilt(), "the web pages are not built into this test run");
        Matcher script = Pattern.compile("src=\"(/assets/[^\"]+\\.js)\"").matcher(Http.get(baseUrl() + "/").body());
        assertThat(script.find()).isTrue();
        Http.Reply asset = Http.get(baseUrl() + script.group(1));
        assertThat(asset.status()).isEqualTo(200);
        assertThat(asset.raw().headers().firstValue("Cache-Control").orElseThrow())
                .contains("max-age=31536000", "public", "immutable");
    }

    @Test
    void theApplicationDoesNotSwallowTheApiOrUnknownAddresses() {
        Http.Reply unknownApi = Http.get(baseUrl() + "/api/no-such-thing");
        assertThat(unknownApi.status()).isEqualTo(404);
        assertThat(unknownApi.contentType()).startsWith("application/problem+json");

        Http.Reply docs = Http.get(baseUrl() + "/v1/docs");
        assertThat(docs.status()).isEqualTo(200);
        assertThat(docs.contentType()).startsWith("text/plain");

        assertThat(Http.get(baseUrl() + "/actuator/health").contentType()).contains("json");
        assertThat(Http.get(baseUrl() + "/v3/api-docs").body()).contains("\"openapi\"");
        assertThat(Http.get(baseUrl() + "/api/mcp/providers").contentType()).startsWith("application/json");

        Http.Reply deeper = Http.get(baseUrl() + "/console/elsewhere");
        assertThat(deeper.status()).isEqualTo(404);
        assertThat(deeper.contentType()).doesNotStartWith("text/html");
    }

    @Test
    void theSettingsNameTheBlockExplorer() {
        Http.Reply settings = Http.get(baseUrl() + "/api/web/settings");
        assertThat(settings.status()).isEqualTo(200);
        assertThat(settings.json().path("explorerTxUrl").asText()).contains("{txHash}");
    }

    @Test
    void operatorHealthNeedsTheAdminTokenAndShowsTheListenerLag() {
        assertThat(Http.get(baseUrl() + "/api/admin/health").status()).isEqualTo(401);
        Http.Reply health = Http.send(HttpRequest.newBuilder(URI.create(baseUrl() + "/api/admin/health"))
                .header("Authorization", "Bearer test-admin-token"));
        assertThat(health.status()).as(health.body()).isEqualTo(200);
        assertThat(health.json().path("components").path("chainListener").path("details").has("lagBlocks")).isTrue();
        assertThat(health.json().path("components").path("gasStation").path("status").asText()).isNotEmpty();
    }
}
