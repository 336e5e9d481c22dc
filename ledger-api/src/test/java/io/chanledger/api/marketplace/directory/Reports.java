package io.chanledger.api.marketplace.directory;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.chanledger.api.support.Http;
import java.net.URI;
import java.net.http.HttpRequest;
import java.util.UUID;

/**
 * Posts what clients report (feedback, telemetry, probe alerts), each from a client address of its
 * own unless a test names one: the test profile takes the client from X-Forwarded-For, so tests
 * share no rate-limit bucket.
 */
final class Reports {

    private Reports() {
    }

    static String newClient() {
        return "client-" + UUID.randomUUID();
    }

    static Http.Reply post(String url, String body) {
        return post(url, newClient(), "application/json", body);
    }

    static Http.Reply post(String url, String client, String contentType, String body) {
        return Http.send(HttpRequest.newBuilder(URI.create(url))
                .header("Content-Type", contentType)
                .header("X-Forwarded-For", client)
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    /** A refusal the way agent clients read it: problem+json whose {@code error} is the message to show. */
    static JsonNode assertRefused(Http.Reply reply, int status, String code) {
        ProviderRegistrationTest.assertProblem(reply, status, code, null);
        JsonNode problem = reply.json();
        assertThat(problem.path("error").isTextual()).isTrue();
        return problem;
    }
}
