package io.chanledger.api.marketplace.skills;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
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

    /**
     * The answers read back into the records the OpenAPI document (and so the pages' types) is
     * made from, refusing any field they do not name: every shipped skill, the list, and a
     * published one. A field the service starts to answer fails here until it is named there.
     */
    @Test
    void theAnswersHaveExactlyTheFieldsTheirPublishedSchemasName() throws Exception {
        ObjectMapper strict = JsonMapper.builder().addModule(new JavaTimeModule())
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES).build();
        SkillAnswers.SkillList list = strict.readValue(Http.get(baseUrl() + "/api/skills").body(),
                SkillAnswers.SkillList.class);
        assertThat(list.count()).isEqualTo(list.skills().size()).isPositive();
        // the shipped skills; other tests publish theirs under test- slugs, one with fields of its own
        for (SkillAnswers.Summary summary : list.skills().stream().filter(s -> !s.slug().startsWith("test-")).toList()) {
            SkillAnswers.Document skill = strict.readValue(Http.get(baseUrl() + "/api/skills/" + summary.slug()).body(),
                    SkillAnswers.Document.class);
            assertThat(skill.providers().stream().map(SkillAnswers.Provider::role)).containsExactlyElementsOf(summary.roles());
            assertThat(skill.steps()).hasSize(summary.steps());
            assertThat(skill.publishedAt()).isEqualTo(summary.publishedAt());
        }
        String slug = slug();
        SkillAnswers.Document published = strict.readValue(put(slug, SKILL, "test-admin-token").body(),
                SkillAnswers.Document.class);
        assertThat(published.steps().get(1).template()).isEqualTo("Summarise {{translation}}");
        assertThat(published.inputs()).isNull();
    }

    @Test
    void aPublishersOwnFieldsPassThrough() {
        String slug = slug();
        put(slug, SKILL.replaceFirst("\\{", "{\"tags\": [\"translation\"], "), "test-admin-token");

        JsonNode skill = Http.get(baseUrl() + "/api/skills/" + slug).json();

        assertThat(skill.path("tags").get(0).asText()).isEqualTo("translation");
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
