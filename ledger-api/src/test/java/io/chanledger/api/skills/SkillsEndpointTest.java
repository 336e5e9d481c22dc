package io.chanledger.api.skills;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.chanledger.api.support.Http;
import io.chanledger.api.support.LedgerIntegrationTest;
import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Instant;
import java.util.UUID;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;

class SkillsEndpointTest extends LedgerIntegrationTest {

    private static final String SKILL = """
            {"name": "Translate, then summarise", "description": "two steps",
             "providers": [{"role": "translator", "models": ["gpt-4o-mini"], "deposit": "0.25"}],
             "steps": [{"id": "translation", "role": "translator", "after": [], "message": {"text": "{{user_prompt}}"}},
                       {"id": "summary", "role": "translator", "after": ["translation"], "message": {},
                        "template": "Summarise {{translation}}"}]}""";

    private Http.Reply put(String slug, String body, String token) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl() + "/api/skills/" + slug))
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(body));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return Http.send(request);
    }

    private static String slug() {
        return "test-" + UUID.randomUUID().toString().substring(0, 8);
    }

    @Test
    void theShippedSkillsAreListed() {
        Http.Reply reply = Http.get(baseUrl() + "/api/skills");

        assertThat(reply.status()).isEqualTo(200);
        JsonNode body = reply.json();
        assertThat(body.path("count").asInt()).isEqualTo(body.path("skills").size());
        assertThat(StreamSupport.stream(body.path("skills").spliterator(), false).map(s -> s.path("slug").asText()))
                .contains("research-then-summarise", "transcribe-then-translate", "scrape-then-extract", "compare-sources");
        JsonNode first = body.path("skills").get(0);
        assertThat(first.path("version").isInt()).isTrue();
        assertThat(first.path("name").isTextual()).isTrue();
        assertThat(first.path("roles").isArray()).isTrue();
    }

    @Test
    void aSkillIsServedWithItsVersionProvidersAndSteps() {
        Http.Reply reply = Http.get(baseUrl() + "/api/skills/research-then-summarise");

        assertThat(reply.status()).isEqualTo(200);
        JsonNode skill = reply.json();
        assertThat(skill.path("slug").asText()).isEqualTo("research-then-summarise");
        assertThat(skill.path("version").asInt()).isEqualTo(1);
        assertThat(Instant.parse(skill.path("publishedAt").asText())).isNotNull();
        assertThat(skill.path("providers").get(0).path("deposit").asText()).isEqualTo("0.20");
        assertThat(skill.path("providers").get(1).path("models").isArray()).isTrue();
        assertThat(skill.path("steps").get(1).path("after").get(0).asText()).isEqualTo("research");
        assertThat(skill.path("steps").get(1).path("template").asText()).contains("{{research}}");
        assertThat(skill.path("steps").get(0).path("message").isObject()).isTrue();
    }

    @Test
    void anUnknownSlugIsNotFound() {
        Http.Reply reply = Http.get(baseUrl() + "/api/skills/no-such-skill");

        assertThat(reply.status()).isEqualTo(404);
        assertThat(reply.contentType()).startsWith("application/problem+json");
        assertThat(reply.json().path("code").asText()).isEqualTo("skill_not_found");
        assertThat(Http.get(baseUrl() + "/api/skills/Not_A_Slug").status()).isEqualTo(404);
        assertThat(Http.get(baseUrl() + "/api/skills/research-then-summarise?version=99").status()).isEqualTo(404);
    }

    @Test
    void anAdminPublishesNewVersionsAndEarlierOnesStayReadable() {
        String slug = slug();

        Http.Reply first = put(slug, SKILL, "test-admin-token");
        Http.Reply same = put(slug, SKILL.replace("\"two steps\"", "\"two steps\"  "), "test-admin-token");
        Http.Reply second = put(slug, SKILL.replace("two steps", "two steps, revised"), "test-admin-token");

        assertThat(first.status()).as(first.body()).isEqualTo(201);
        assertThat(first.json().path("version").asInt()).isEqualTo(1);
        assertThat(same.status()).isEqualTo(200);
        assertThat(same.json().path("version").asInt()).isEqualTo(1);
        assertThat(second.status()).isEqualTo(201);
        assertThat(second.json().path("version").asInt()).isEqualTo(2);
        assertThat(Http.get(baseUrl() + "/api/skills/" + slug).json().path("description").asText())
                .isEqualTo("two steps, revised");
        assertThat(Http.get(baseUrl() + "/api/skills/" + slug + "?version=1").json().path("description").asText())
                .isEqualTo("two steps");
    }

    @Test
    void publishingNeedsTheAdminToken() {
        String slug = slug();

        assertThat(put(slug, SKILL, null).status()).isEqualTo(401);
        assertThat(put(slug, SKILL, "wrong").status()).isEqualTo(401);
        assertThat(Http.get(baseUrl() + "/api/skills/" + slug).status()).isEqualTo(404);
    }

    @Test
    void anInvalidSkillIsRefusedWithEveryReason() {
        String invalid = SKILL.replace("\"after\": [\"translation\"]", "\"after\": [\"transcript\"]")
                .replace("\"0.25\"", "\"0.25.0\"");

        Http.Reply reply = put(slug(), invalid, "test-admin-token");

        assertThat(reply.status()).isEqualTo(400);
        assertThat(reply.contentType()).startsWith("application/problem+json");
        JsonNode problem = reply.json();
        assertThat(problem.path("code").asText()).isEqualTo("invalid_skill");
        assertThat(problem.path("detail").asText()).startsWith("2 problems:");
        assertThat(problem.path("problems")).extracting(JsonNode::asText).containsExactlyInAnyOrder(
                "provider 'translator': deposit \"0.25.0\" is not a USDC amount: USDC amount has '.' at position 4; "
                        + "expected digits with at most one '.'",
                "step 'summary' runs after 'transcript', which is not a step of this skill");
    }

    @Test
    void skillsAnswerIfNoneMatchWith304() {
        Http.Reply first = Http.get(baseUrl() + "/api/skills/scrape-then-extract");
        String etag = first.raw().headers().firstValue("ETag").orElseThrow();

        Http.Reply again = Http.send(HttpRequest.newBuilder(URI.create(baseUrl() + "/api/skills/scrape-then-extract"))
                .header("If-None-Match", etag));

        assertThat(again.status()).isEqualTo(304);
        assertThat(again.body()).isEmpty();
    }
}
