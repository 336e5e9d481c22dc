package io.chanledger.api.http;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.spi.ILoggingEvent;
import com.fasterxml.jackson.databind.JsonNode;
import io.chanledger.api.support.Http;
import io.chanledger.api.support.LedgerIntegrationTest;
import io.chanledger.api.support.RawHttp;
import io.chanledger.api.support.TestKeys;
import io.chanledger.api.ledger.wallet.WalletSigning;
import io.chanledger.domain.eip712.DigestSigner;
import java.time.Instant;
import java.util.UUID;
import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Request heads held to the letter, sent over raw sockets: credential headers sent twice, an admin
 * token or wallet header with white space after it, TRACE, and lines that end in a bare LF. Each
 * refusal is a 4xx in the route family's error shape, records nothing, and logs at most one line
 * without a stack trace.
 */
class StrictRequestHeadTest extends LedgerIntegrationTest {

    private static final String ADMIN_TOKEN = "test-admin-token";
    private static final String SKILL = "{\"name\": \"Strict heads\", \"description\": \"one step\","
            + " \"providers\": [{\"role\": \"writer\", \"models\": [\"gpt-4o-mini\"], \"deposit\": \"0.25\"}],"
            + " \"steps\": [{\"id\": \"answer\", \"role\": \"writer\", \"after\": [], \"message\": {}}]}";

    /** The first request of the application initializes the dispatcher servlet, which logs that once. */
    @BeforeEach
    void serveOneRequest() {
        assertThat(Http.get(baseUrl() + "/api/chan/signing").status()).isEqualTo(200);
    }

    private static String slug() {
        return "strict-" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** PUT of a skill, its head lines ended by {@code eol}, with {@code authorization} lines as given. */
    private RawHttp.Reply putSkill(String slug, String eol, String... authorization) {
        StringBuilder request = new StringBuilder("PUT /api/skills/" + slug + " HTTP/1.1" + eol)
                .append("Host: 127.0.0.1").append(eol)
                .append("Content-Type: application/json").append(eol)
                .append("Content-Length: ").append(SKILL.length()).append(eol);
        for (String line : authorization) {
            request.append(line).append(eol);
        }
        request.append("Connection: close").append(eol).append(eol).append(SKILL);
        return quietly(() -> RawHttp.exchangeExactly(port, request.toString()));
    }

    private boolean skillPublished(String slug) {
        return Http.get(baseUrl() + "/api/skills/" + slug).status() == 200;
    }

    @Test
    void aPlainRequestOverARawSocketIsServed() {
        String slug = slug();

        RawHttp.Reply reply = putSkill(slug, "\r\n", "Authorization: Bearer " + ADMIN_TOKEN);

        assertThat(reply.status()).as(reply.body()).isBetween(200, 201);
        assertThat(skillPublished(slug)).isTrue();
    }

    @Test
    void twoAuthorizationHeadersAreAMalformedRequest() {
        String slug = slug();

        RawHttp.Reply both = putSkill(slug, "\r\n", "Authorization: Bearer " + ADMIN_TOKEN,
                "Authorization: Bearer " + ADMIN_TOKEN);
        RawHttp.Reply firstWrong = putSkill(slug, "\r\n", "Authorization: Bearer wrong",
                "authorization: Bearer " + ADMIN_TOKEN);
        RawHttp.Reply v1 = quietly(() -> RawHttp.exchange(port,
                "GET /v1/models HTTP/1.1\r\nAuthorization: Bearer sk-one\r\nAuthorization: Bearer sk-two", ""));

        assertProblem(both, 400, "malformed_request");
        assertThat(both.json().path("header").asText()).isEqualTo("Authorization");
        assertProblem(firstWrong, 400, "malformed_request");
        assertOpenAiError(v1, 400, "malformed_request");
        assertThat(skillPublished(slug)).isFalse();
    }

    @Test
    void aVoucherHeaderSentTwiceIsAMalformedRequest() {
        String body = "{\"model\":\"echo-1\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
        String voucher = "X-CHAN-Voucher: {\"channelId\":\"0x" + "11".repeat(32)
                + "\",\"amount\":\"1\",\"nonce\":\"1\",\"signature\":\"0x00\"}";

        RawHttp.Reply twice = quietly(() -> RawHttp.exchange(port, "POST /v1/chat/completions HTTP/1.1\r\n"
                + "Content-Type: application/json\r\nContent-Length: " + body.length() + "\r\n" + voucher + "\r\n" + voucher.replace("X-CHAN", "x-chan"), body));

        assertOpenAiError(twice, 400, "malformed_request");
        assertThat(twice.body()).contains("X-CHAN-Voucher");
    }

    @Test
    void aWalletHeaderSentTwiceIsAMalformedRequestAndUsesNoSignature() {
        DigestSigner provider = TestKeys.wallet("strict-head-" + UUID.randomUUID());
        String path = "/api/providers/" + provider.address() + "/claimable";
        long now = Instant.now().getEpochSecond();
        String nonce = WalletSigning.nonce();
        String signature = WalletSigning.sign(provider, "GET", path, provider.address(), now, nonce);
        String head = "GET " + path + " HTTP/1.1\r\nX-CHAN-Auth-Address: " + provider.address()
                + "\r\nX-CHAN-Auth-Timestamp: " + now + "\r\nX-CHAN-Auth-Nonce: " + nonce
                + "\r\nX-CHAN-Auth-Signature: " + signature;

        RawHttp.Reply twice = quietly(() -> RawHttp.exchange(port, head + "\r\nX-CHAN-Auth-Signature: 0x00", ""));
        RawHttp.Reply addressTwice = quietly(() -> RawHttp.exchange(port,
                head + "\r\nx-chan-auth-address: " + provider.address(), ""));

        assertProblem(twice, 400, "malformed_request");
        assertThat(twice.json().path("header").asText()).isEqualTo("X-CHAN-Auth-Signature");
        assertProblem(addressTwice, 400, "malformed_request");
        assertThat(addressTwice.json().path("header").asText()).isEqualTo("X-CHAN-Auth-Address");
        // the signature was not used up by the refused requests
        RawHttp.Reply once = RawHttp.exchange(port, head, "");
        assertThat(once.status()).as(once.body()).isEqualTo(200);
    }

    @Test
    void anAdminTokenWithWhiteSpaceAfterItIsNotTheToken() {
        String slug = slug();

        RawHttp.Reply space = putSkill(slug, "\r\n", "Authorization: Bearer " + ADMIN_TOKEN + " ");
        RawHttp.Reply tab = putSkill(slug, "\r\n", "Authorization: Bearer " + ADMIN_TOKEN + "\t");

        assertProblem(space, 401, "admin_unauthorized");
        assertProblem(tab, 401, "admin_unauthorized");
        assertThat(skillPublished(slug)).isFalse();
    }

    @Test
    void aWalletHeaderWithWhiteSpaceAfterItIsInvalidAndUsesNoSignature() {
        DigestSigner provider = TestKeys.wallet("strict-head-" + UUID.randomUUID());
        String path = "/api/providers/" + provider.address() + "/claimable";
        long now = Instant.now().getEpochSecond();
        String nonce = WalletSigning.nonce();
        String signature = WalletSigning.sign(provider, "GET", path, provider.address(), now, nonce);
        String address = "GET " + path + " HTTP/1.1\r\nX-CHAN-Auth-Address: " + provider.address();
        String rest = "\r\nX-CHAN-Auth-Timestamp: " + now + "\r\nX-CHAN-Auth-Nonce: " + nonce
                + "\r\nX-CHAN-Auth-Signature: " + signature;

        RawHttp.Reply padded = quietly(() -> RawHttp.exchange(port, address + " " + rest, ""));

        assertProblem(padded, 401, "wallet_auth_invalid");
        assertThat(padded.json().path("header").asText()).isEqualTo("X-CHAN-Auth-Address");
        RawHttp.Reply exact = RawHttp.exchange(port, address + rest, "");
        assertThat(exact.status()).as(exact.body()).isEqualTo(200);
    }

    @Test
    void traceIsRefusedWithAnErrorBodyAndTheAllowedMethods() {
        RawHttp.Reply api = quietly(() -> RawHttp.exchange(port,
                "TRACE /api/channels HTTP/1.1\r\nX-Private: keep-me-to-yourself", ""));
        RawHttp.Reply v1 = quietly(() -> RawHttp.exchange(port, "TRACE /v1/models HTTP/1.1", ""));

        assertProblem(api, 405, "method_not_allowed");
        assertThat(api.header("Allow")).contains("GET").doesNotContain("TRACE");
        assertThat(api.body()).doesNotContain("keep-me-to-yourself");
        assertOpenAiError(v1, 405, "method_not_allowed");
        assertThat(v1.header("Allow")).contains("GET").doesNotContain("TRACE");
    }

    @Test
    void linesEndingInABareLineFeedAreAMalformedRequest() {
        String slug = slug();

        RawHttp.Reply everyLine = putSkill(slug, "\n", "Authorization: Bearer " + ADMIN_TOKEN);
        RawHttp.Reply oneHeader = quietly(() -> RawHttp.exchangeExactly(port, "GET /api/chan/signing HTTP/1.1\r\n"
                + "Host: 127.0.0.1\nAccept: application/json\r\nConnection: close\r\n\r\n"));
        RawHttp.Reply requestLine = quietly(() -> RawHttp.exchangeExactly(port, "GET /api/chan/signing HTTP/1.1\n"
                + "Host: 127.0.0.1\r\nConnection: close\r\n\r\n"));
        RawHttp.Reply lastLine = quietly(() -> RawHttp.exchangeExactly(port, "GET /api/chan/signing HTTP/1.1\r\n"
                + "Host: 127.0.0.1\r\nConnection: close\r\n\n"));
        RawHttp.Reply v1 = quietly(() -> RawHttp.exchangeExactly(port, "GET /v1/models HTTP/1.1\n"
                + "Host: 127.0.0.1\nConnection: close\n\n"));

        assertProblem(everyLine, 400, "malformed_request");
        assertThat(skillPublished(slug)).isFalse();
        assertProblem(oneHeader, 400, "malformed_request");
        assertProblem(requestLine, 400, "malformed_request");
        assertProblem(lastLine, 400, "malformed_request");
        assertOpenAiError(v1, 400, "malformed_request");
        assertThat(everyLine.header("Connection")).isEqualTo("close");
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

    private static void assertProblem(RawHttp.Reply reply, int status, String code) {
        assertThat(reply.status()).as(reply.body()).isEqualTo(status);
        assertThat(reply.contentType()).as(reply.body()).startsWith("application/problem+json");
        JsonNode problem = reply.json();
        assertThat(problem.path("code").asText()).isEqualTo(code);
        assertThat(problem.path("status").asInt()).isEqualTo(status);
        assertThat(problem.path("detail").asText()).isNotBlank();
        assertThat(reply.body()).doesNotContain("Exception").doesNotContain("\tat ");
    }

    private static void assertOpenAiError(RawHttp.Reply reply, int status, String code) {
        assertThat(reply.status()).as(reply.body()).isEqualTo(status);
        assertThat(reply.contentType()).as(reply.body()).startsWith("application/json");
        assertThat(reply.header("X-CHAN-Error")).isEqualTo(code);
        JsonNode error = reply.json().path("error");
        assertThat(error.path("code").asText()).isEqualTo(code);
        assertThat(error.path("message").asText()).isNotBlank();
    }
}
