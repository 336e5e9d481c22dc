package io.chanledger.api.http;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.spi.ILoggingEvent;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chanledger.api.support.Http;
import io.chanledger.api.support.LedgerIntegrationTest;
import io.chanledger.api.support.RawHttp;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.util.UUID;
import java.util.function.Supplier;
import org.apache.coyote.AbstractProtocol;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.web.embedded.tomcat.TomcatWebServer;
import org.springframework.boot.web.context.WebServerApplicationContext;

/**
 * Inputs that a fuzzer, sending requests to every operation of {@code /v3/api-docs}, got a 5xx,
 * an HTML page or Spring's default JSON for. Each is now a 4xx in the error shape of its route
 * family (problem+json under {@code /api}, the OpenAI error with {@code X-CHAN-Error} under
 * {@code /v1}, the gas station's own), and writes at most one log line, without a stack trace.
 */
class BadInputTest extends LedgerIntegrationTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ADMIN = "Bearer test-admin-token";
    private static final String UNKNOWN_PROVIDER = "prov-000000000000000000000000";
    private static final String SOME_CHANNEL = "0x" + "ab".repeat(32);

    @Autowired
    private WebServerApplicationContext server;

    /** The first request of the application initializes the dispatcher servlet, which logs that once. */
    @BeforeEach
    void serveOneRequest() {
        assertThat(Http.get(baseUrl() + "/api/chan/signing").status()).isEqualTo(200);
    }

    @ParameterizedTest
    @ValueSource(strings = {"*/*", "application/*", "application/*+json"})
    void aWildcardContentTypeCountsAsNone(String contentType) {
        // endpoints that read any body read it as JSON
        Http.Reply gas = quietly(() -> Http.send(post("/api/gas-station", contentType, "{\"address\":\"not-an-address\"}")
                .header("X-Forwarded-For", "bad-input-" + UUID.randomUUID())));
        assertThat(gas.status()).as(gas.body()).isEqualTo(400);
        assertThat(gas.json().path("success").asBoolean(true)).isFalse();
        assertThat(gas.json().path("code").asText()).isEqualTo("invalid_address");

        Http.Reply chat = quietly(() -> Http.send(post("/v1/chat/completions", contentType,
                "{\"model\":\"no-such-model\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}")
                .header("X-CHAN-Voucher", "{}")));
        assertOpenAiError(chat.status(), chat.contentType(), chat.raw().headers().firstValue("X-CHAN-Error").orElse(null),
                chat.body(), 400, "model_not_supported");

        Http.Reply echo = quietly(() -> Http.send(post("/echo/v1/chat/completions", contentType,
                "{\"model\":\"echo-1\",\"messages\":[{\"role\":\"user\",\"content\":\"ping\"}]}")));
        assertThat(echo.status()).as(echo.body()).isEqualTo(200);
        assertThat(echo.json().path("choices").path(0).path("message").path("content").asText()).isEqualTo("Echo: ping");

        // endpoints that take JSON only refuse a body of no declared type
        Http.Reply suspend = quietly(() -> Http.send(post("/api/admin/providers/" + UNKNOWN_PROVIDER + "/suspend",
                contentType, "{\"reason\":\"fuzz\"}").header("Authorization", ADMIN)));
        assertProblem(suspend.status(), suspend.contentType(), suspend.body(), 415, "unsupported_media_type");

        Http.Reply score = quietly(() -> Http.send(HttpRequest.newBuilder(URI.create(baseUrl()
                + "/api/admin/providers/" + UNKNOWN_PROVIDER + "/score")).header("Content-Type", contentType)
                .header("Authorization", ADMIN).PUT(HttpRequest.BodyPublishers.ofString("{\"score\":0.5}"))));
        assertProblem(score.status(), score.contentType(), score.body(), 415, "unsupported_media_type");

        Http.Reply close = quietly(() -> Http.send(post("/v1/close-channel", contentType,
                "{\"channelId\":\"" + SOME_CHANNEL + "\"}")));
        assertOpenAiError(close.status(), close.contentType(), close.raw().headers().firstValue("X-CHAN-Error").orElse(null),
                close.body(), 415, "unsupported_media_type");
    }

    @Test
    void theErrorPageIsNotAResource() {
        Http.Reply get = quietly(() -> Http.get(baseUrl() + "/error"));
        Http.Reply post = quietly(() -> Http.postJson(baseUrl() + "/error", "{}"));

        assertProblem(get.status(), get.contentType(), get.body(), 404, "not_found");
        assertProblem(post.status(), post.contentType(), post.body(), 404, "not_found");
        assertThat(Http.get(baseUrl() + "/v3/api-docs").json().path("paths").has("/error")).isFalse();
    }

    @Test
    void aBadPercentEscapeInThePathIsAMalformedRequest() {
        RawHttp.Reply api = quietly(() -> RawHttp.exchange(port, "GET /api/channels/%zz HTTP/1.1", ""));
        RawHttp.Reply encodedSlash = quietly(() -> RawHttp.exchange(port, "GET /api/channels/a%2fb HTTP/1.1", ""));
        RawHttp.Reply v1 = quietly(() -> RawHttp.exchange(port, "GET /v1/models/%zz HTTP/1.1", ""));

        assertProblem(api.status(), api.contentType(), api.body(), 400, "malformed_request");
        assertProblem(encodedSlash.status(), encodedSlash.contentType(), encodedSlash.body(), 400, "malformed_request");
        assertOpenAiError(v1.status(), v1.contentType(), v1.header("X-CHAN-Error"), v1.body(), 400, "malformed_request");
    }

    @Test
    void bracketsUnencodedInAQueryAreAMalformedRequest() {
        RawHttp.Reply reply = quietly(() -> RawHttp.exchange(port, "GET /api/channels?provider=[] HTTP/1.1", ""));

        assertProblem(reply.status(), reply.contentType(), reply.body(), 400, "malformed_request");
    }

    @Test
    void headersOverTheLimitAreAMalformedRequest() {
        // above server.max-http-request-header-size (48 KB, room for a long x402 payment header)
        String oversized = "\r\nX-Padding: " + "a".repeat(60_000);
        RawHttp.Reply api = quietly(() -> RawHttp.exchange(port, "GET /api/channels HTTP/1.1" + oversized, ""));
        RawHttp.Reply v1 = quietly(() -> RawHttp.exchange(port, "GET /v1/models HTTP/1.1" + oversized, ""));

        assertProblem(api.status(), api.contentType(), api.body(), 400, "malformed_request");
        assertOpenAiError(v1.status(), v1.contentType(), v1.header("X-CHAN-Error"), v1.body(), 400, "malformed_request");
    }

    @Test
    void aBodyThatStopsShortIsARequestTimeout() {
        // the connector waits connectionTimeout (60 s) for a body; for this test's connections, one second
        AbstractProtocol<?> connector = (AbstractProtocol<?>) ((TomcatWebServer) server.getWebServer()).getTomcat()
                .getConnector().getProtocolHandler();
        int timeout = connector.getConnectionTimeout();
        connector.setConnectionTimeout(1_000);
        RawHttp.Reply reply;
        RawHttp.Reply chat;
        try {
            reply = quietly(() -> RawHttp.exchange(port, "POST /api/channels/" + SOME_CHANNEL + "/vouchers HTTP/1.1"
                    + "\r\nContent-Type: application/json\r\nContent-Length: 100", "{\"amount\":"));
            // the paid endpoint reads its body itself, before it looks at the voucher: a voucher it
            // would refuse at once is never reached, so nothing is held or charged for the request
            chat = quietly(() -> RawHttp.exchange(port, "POST /v1/chat/completions HTTP/1.1"
                    + "\r\nContent-Type: application/json\r\nX-CHAN-Voucher: {}\r\nContent-Length: 100",
                    "{\"model\":"));
        } finally {
            connector.setConnectionTimeout(timeout);
        }

        assertProblem(reply.status(), reply.contentType(), reply.body(), 408, "request_timeout");
        assertOpenAiError(chat.status(), chat.contentType(), chat.header("X-CHAN-Error"), chat.body(), 408,
                "request_timeout");
    }

    @Test
    void aChunkedBodyOverTheLimitIsTooLargeLikeADeclaredOne() {
        String huge = "{\"model\":\"echo-1\",\"padding\":\"" + "a".repeat(70_000) + "\"}";
        for (boolean chunked : new boolean[]{true, false}) {
            Http.Reply voucher = quietly(() -> Http.send(post("/api/channels/" + SOME_CHANNEL + "/vouchers",
                    "application/json", huge, chunked)));
            Http.Reply chat = quietly(() -> Http.send(post("/v1/chat/completions", "application/json", huge, chunked)
                    .header("X-CHAN-Voucher", "{}")));

            assertProblem(voucher.status(), voucher.contentType(), voucher.body(), 413, "body_too_large");
            assertOpenAiError(chat.status(), chat.contentType(),
                    chat.raw().headers().firstValue("X-CHAN-Error").orElse(null), chat.body(), 413, "body_too_large");
        }
    }

    /**
     * The chat endpoints read their bodies themselves: a declared length and a chunked body, each
     * larger than one read of the connector's buffer, are read whole, to the same tokens.
     */
    @Test
    void aChatBodyUnderTheLimitIsReadWholeWhetherItsLengthIsDeclaredOrNot() {
        String body = "{\"model\":\"echo-1\",\"messages\":[{\"role\":\"user\",\"content\":\""
                + "word ".repeat(6_000) + "\"}]}";
        int[] promptTokens = new int[2];
        for (int chunked = 0; chunked < 2; chunked++) {
            Http.Reply reply = Http.send(post("/echo/v1/chat/completions", "application/json", body, chunked == 1));
            assertThat(reply.status()).as(reply.body()).isEqualTo(200);
            promptTokens[chunked] = reply.json().path("usage").path("prompt_tokens").asInt();
        }
        assertThat(promptTokens[0]).isGreaterThanOrEqualTo(6_000).isEqualTo(promptTokens[1]);
    }

    private HttpRequest.Builder post(String path, String contentType, String body) {
        return post(path, contentType, body, false);
    }

    /** A chunked body is one whose length the publisher does not know. */
    private HttpRequest.Builder post(String path, String contentType, String body, boolean chunked) {
        HttpRequest.BodyPublisher publisher = HttpRequest.BodyPublishers.ofString(body);
        return HttpRequest.newBuilder(URI.create(baseUrl() + path)).header("Content-Type", contentType)
                .POST(chunked ? HttpRequest.BodyPublishers.fromPublisher(publisher) : publisher);
    }

    /** Runs the request and checks that serving it logged at most one line, without a stack trace. */
    private static <T> T quietly(Supplier<T> request) {
        RequestThreadLog.Logged<T> logged = RequestThreadLog.during(request);
        assertThat(logged.lines()).as("log lines").hasSizeLessThanOrEqualTo(1);
        for (ILoggingEvent line : logged.lines()) {
            assertThat(line.getThrowableProxy()).as(line.getFormattedMessage()).isNull();
        }
        return logged.result();
    }

    private static void assertProblem(int status, String contentType, String body, int expectedStatus, String code) {
        assertThat(status).as(body).isEqualTo(expectedStatus);
        assertThat(contentType).as(body).startsWith("application/problem+json");
        JsonNode problem = json(body);
        assertThat(problem.path("code").asText()).isEqualTo(code);
        assertThat(problem.path("status").asInt()).isEqualTo(expectedStatus);
        assertThat(problem.path("detail").asText()).isNotBlank();
    }

    private static void assertOpenAiError(int status, String contentType, String errorHeader, String body,
                                          int expectedStatus, String code) {
        assertThat(status).as(body).isEqualTo(expectedStatus);
        assertThat(contentType).as(body).startsWith("application/json");
        assertThat(errorHeader).isEqualTo(code);
        JsonNode error = json(body).path("error");
        assertThat(error.path("code").asText()).isEqualTo(code);
        assertThat(error.path("message").asText()).isNotBlank();
        assertThat(error.path("type").asText()).isNotBlank();
    }

    private static JsonNode json(String body) {
        try {
            return JSON.readTree(body);
        } catch (IOException e) {
            throw new AssertionError("not JSON: " + body, e);
        }
    }
}
