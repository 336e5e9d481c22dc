package io.chanledger.api.provider.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.chanledger.api.support.Http;
import io.chanledger.api.support.LedgerIntegrationTest;
import java.net.URI;
import java.net.http.HttpRequest;
import org.junit.jupiter.api.Test;

/**
 * A provider's public documents ({@code /v1/docs}, {@code /v1/pricing}, {@code /v1/models}) are
 * readable from any origin, GET only and without credentials, so that the marketplace's provider
 * page, on another origin, shows them; the paid and wallet-signed endpoints give no other origin
 * leave to read them.
 */
class PublicDocumentsCorsTest extends LedgerIntegrationTest {

    private static final String ORIGIN = "https://marketplace.example";
    private static final String[] DOCUMENTS = {"/v1/docs", "/v1/pricing", "/v1/models"};

    @Test
    void anyOriginMayReadThePublicDocumentsWithoutCredentials() {
        for (String path : DOCUMENTS) {
            Http.Reply reply = Http.send(request(path).header("Origin", ORIGIN).GET());
            assertThat(reply.status()).as(path).isEqualTo(200);
            assertThat(reply.raw().headers().firstValue("Access-Control-Allow-Origin")).as(path).contains("*");
            assertThat(reply.raw().headers().firstValue("Access-Control-Allow-Credentials")).as(path).isEmpty();
        }
    }

    @Test
    void aPreflightAllowsGetAndNothingElse() {
        for (String path : DOCUMENTS) {
            Http.Reply get = Http.send(preflight(path, "GET", "accept"));
            assertThat(get.status()).as(path).isEqualTo(200);
            assertThat(get.raw().headers().firstValue("Access-Control-Allow-Origin")).as(path).contains("*");
            assertThat(get.raw().headers().firstValue("Access-Control-Allow-Methods")).as(path).contains("GET");
            assertThat(get.raw().headers().firstValue("Access-Control-Allow-Credentials")).as(path).isEmpty();

            Http.Reply post = Http.send(preflight(path, "POST", "content-type"));
            assertThat(post.raw().headers().firstValue("Access-Control-Allow-Origin")).as(path).isEmpty();
        }
    }

    @Test
    void thePaidAndWalletSignedEndpointsGiveNoOtherOriginLeave() {
        Http.Reply unpaid = Http.send(request("/v1/chat/completions").header("Origin", ORIGIN)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(Agent.chatBody("echo-1", "hi", null, false))));
        assertThat(unpaid.status()).as(unpaid.body()).isEqualTo(402);
        assertThat(unpaid.raw().headers().firstValue("Access-Control-Allow-Origin")).isEmpty();

        for (String[] endpoint : new String[][] {{"/v1/chat/completions", "POST"}, {"/v1/close-channel", "POST"},
                {"/api/provider/dashboard", "GET"}, {"/api/channels/0x" + "ab".repeat(32), "GET"}}) {
            Http.Reply reply = Http.send(preflight(endpoint[0], endpoint[1],
                    "content-type,x-chan-voucher,x-chan-auth-address,x-chan-auth-signature"));
            assertThat(reply.raw().headers().firstValue("Access-Control-Allow-Origin")).as(endpoint[0]).isEmpty();
            assertThat(reply.raw().headers().firstValue("Access-Control-Allow-Credentials")).as(endpoint[0]).isEmpty();
        }
        Http.Reply dashboard = Http.send(request("/api/provider/dashboard").header("Origin", ORIGIN).GET());
        assertThat(dashboard.status()).isEqualTo(401);
        assertThat(dashboard.raw().headers().firstValue("Access-Control-Allow-Origin")).isEmpty();
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create(baseUrl() + path));
    }

    private HttpRequest.Builder preflight(String path, String method, String headers) {
        return request(path).header("Origin", ORIGIN).header("Access-Control-Request-Method", method)
                .header("Access-Control-Request-Headers", headers)
                .method("OPTIONS", HttpRequest.BodyPublishers.noBody());
    }
}
