package io.chanledger.api.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.chanledger.api.support.Http;
import io.chanledger.api.support.LedgerIntegrationTest;
import java.net.URI;
import java.net.http.HttpRequest;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * An address that is no resource: a browser ({@code Accept: text/html} first) gets a page, with
 * 404; API clients get the error body of the route family exactly as before, and the API's own
 * families answer JSON to everyone. (A process of both roles shows the marketplace's pages; the
 * roles on their own: MarketplaceRoleTest, ProviderRoleTest.)
 */
class BrowserNotFoundTest extends LedgerIntegrationTest {

    /** What Chromium sends when it opens an address. */
    static final String BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,"
            + "image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7";

    private static boolean pagesBuilt() {
        return BrowserNotFoundTest.class.getClassLoader().getResource("static/index.html") != null;
    }

    @Test
    void aBrowserGetsThePagesWhichSayTheAddressIsNoPage() {
        Assumptions.assumeTrue(pagesBuilt(), "the web pages are not built into this test run");
        for (String path : new String[] {"/no/such/page", "/console/elsewhere", "/index.htm", "/error"}) {
            Http.Reply reply = get(path, BROWSER);
            assertThat(reply.status()).as(path).isEqualTo(404);
            assertThat(reply.contentType()).as(path).startsWith("text/html");
            assertThat(reply.body()).as(path).contains("<div id=\"app\">");
            assertThat(reply.raw().headers().firstValue("Content-Security-Policy")).as(path).isPresent();
            assertThat(reply.raw().headers().allValues("Vary")).as(path).anySatisfy(v -> assertThat(v).contains("Accept"));
        }
    }

    @Test
    void apiClientsKeepTheProblemExactlyAsBefore() {
        for (String accept : new String[] {null, "application/json", "application/problem+json", "*/*",
                "application/json, text/html;q=0.9", "text/html;q=0, */*", "text/html;;;q=x"}) {
            Http.Reply reply = get("/no/such/page", accept);
            assertThat(reply.status()).as(accept).isEqualTo(404);
            assertThat(reply.contentType()).as(accept).startsWith("application/problem+json");
            assertThat(reply.json().properties()).as(accept).hasSize(7);
            assertThat(reply.json().path("type").asText()).isEqualTo("https://chanledger.io/problems/not_found");
            assertThat(reply.json().path("title").asText()).isEqualTo("Not Found");
            assertThat(reply.json().path("status").asInt()).isEqualTo(404);
            assertThat(reply.json().path("detail").asText()).isEqualTo("no such resource");
            assertThat(reply.json().path("instance").asText()).isEqualTo("/no/such/page");
            assertThat(reply.json().path("code").asText()).isEqualTo("not_found");
            assertThat(reply.json().path("error").asText()).isEqualTo("no such resource");
        }
    }

    @Test
    void theApisOwnFamiliesAnswerJsonEvenToABrowser() {
        Http.Reply api = get("/api/no-such-thing", BROWSER);
        assertThat(api.status()).isEqualTo(404);
        assertThat(api.contentType()).startsWith("application/problem+json");
        assertThat(api.json().path("code").asText()).isEqualTo("not_found");

        Http.Reply gateway = get("/v1/no-such-thing", BROWSER);
        assertThat(gateway.status()).isEqualTo(404);
        assertThat(gateway.contentType()).startsWith("application/json");
        assertThat(gateway.json().path("error").path("code").asText()).isEqualTo("not_found");
        assertThat(gateway.raw().headers().firstValue("X-CHAN-Error")).contains("not_found");
    }

    @Test
    void onlyAReadIsAnsweredAPage() {
        Http.Reply post = Http.send(HttpRequest.newBuilder(URI.create(baseUrl() + "/no/such/page"))
                .header("Accept", BROWSER).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{}")));
        assertThat(post.status()).isEqualTo(404);
        assertThat(post.contentType()).startsWith("application/problem+json");
    }

    @Test
    void aBrowserIsOneThatAsksForHtmlAboveJson() {
        assertThat(BrowserNotFound.prefersHtml(BROWSER)).isTrue();
        assertThat(BrowserNotFound.prefersHtml("text/html")).isTrue();
        assertThat(BrowserNotFound.prefersHtml("application/json;q=0.5, text/html")).isTrue();
        assertThat(BrowserNotFound.prefersHtml(null)).isFalse();
        assertThat(BrowserNotFound.prefersHtml("")).isFalse();
        assertThat(BrowserNotFound.prefersHtml("*/*")).isFalse();
        assertThat(BrowserNotFound.prefersHtml("text/*")).isFalse();
        assertThat(BrowserNotFound.prefersHtml("application/json, text/html")).isFalse();
        assertThat(BrowserNotFound.prefersHtml("text/html;q=0.5, application/problem+json")).isFalse();
        assertThat(BrowserNotFound.prefersHtml("text/html;q=0")).isFalse();
        assertThat(BrowserNotFound.prefersHtml("text/html;;;q=x")).isFalse();
    }

    private Http.Reply get(String path, String accept) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl() + path)).GET();
        if (accept != null) {
            request.header("Accept", accept);
        }
        return Http.send(request);
    }
}
