package io.chanledger.api.marketplace.skills;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class SkillValidatorTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** search → draft → review, review also using {{search}} through draft. */
    private static ObjectNode valid() {
        try {
            return (ObjectNode) JSON.readTree("""
                    {"name": "Research and review", "description": "three steps",
                     "providers": [
                       {"role": "searcher", "category": "search", "models": ["web-search"], "deposit": "0.20"},
                       {"role": "writer", "category": "llm", "models": ["gpt-4o-mini"], "deposit": "0.5"}],
                     "steps": [
                       {"id": "search", "role": "searcher", "after": [], "message": {"query": "{{user_prompt}}"}},
                       {"id": "draft", "role": "writer", "after": ["search"], "message": {"max_tokens": 500},
                        "template": "Answer {{ user_prompt }} from {{search}}"},
                       {"id": "review", "role": "writer", "after": ["draft"],
                        "message": {"messages": [{"role": "user", "content": "Check {{draft}} against {{search}}"}]}}],
                     "output": "review"}""");
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static ObjectNode step(ObjectNode skill, int index) {
        return (ObjectNode) skill.path("steps").get(index);
    }

    private static ObjectNode provider(ObjectNode skill, int index) {
        return (ObjectNode) skill.path("providers").get(index);
    }

    private static List<String> problems(Consumer<ObjectNode> edit) {
        ObjectNode skill = valid();
        edit.accept(skill);
        try {
            SkillValidator.validate("research-and-review", skill);
        } catch (InvalidSkillException e) {
            return e.problems();
        }
        throw new AssertionError("the skill was accepted");
    }

    @Test
    void acceptsAValidSkillAndStampsItsSlug() throws InvalidSkillException {
        ObjectNode skill = valid();
        skill.put("version", 99);

        ObjectNode accepted = SkillValidator.validate("research-and-review", skill);

        assertThat(accepted.path("slug").asText()).isEqualTo("research-and-review");
        assertThat(accepted.has("version")).isFalse();
        assertThat(accepted.path("steps").size()).isEqualTo(3);
    }

    @Test
    void refusesAStepThatRunsAfterAnUnknownStep() {
        assertThat(problems(s -> ((ArrayNode) step(s, 1).path("after")).add("translate")))
                .containsExactly("step 'draft' runs after 'translate', which is not a step of this skill");
    }

    @Test
    void refusesAStepThatRunsAfterItself() {
        assertThat(problems(s -> ((ArrayNode) step(s, 1).path("after")).add("draft")))
                .containsExactly("step 'draft' runs after itself");
    }

    @Test
    void refusesACycleAndShowsIt() {
        assertThat(problems(s -> ((ArrayNode) step(s, 0).path("after")).add("review")))
                .containsExactly("the steps form a cycle: search → review → draft → search");
    }

    @Test
    void refusesAPlaceholderNamingNoStep() {
        assertThat(problems(s -> step(s, 1).put("template", "Use {{research}}")))
                .containsExactly("step 'draft' uses {{research}}, which names no step (nor user_prompt)");
    }

    @Test
    void refusesAPlaceholderNamingAStepThatHasNotRunBefore() {
        assertThat(problems(s -> step(s, 1).put("template", "Improve {{review}}")))
                .containsExactly("step 'draft' uses {{review}}, but 'review' is not among the steps it runs after "
                        + "(directly or through others)");
    }

    @Test
    void placeholdersInsideTheMessageAreCheckedToo() {
        assertThat(problems(s -> step(s, 0).putObject("message").put("query", "{{draft}}")))
                .containsExactly("step 'search' uses {{draft}}, but 'draft' is not among the steps it runs after "
                        + "(directly or through others)");
    }

    @Test
    void refusesARoleThatNoProviderPlays() {
        assertThat(problems(s -> step(s, 2).put("role", "reviewer")))
                .containsExactly("step 'review' uses role 'reviewer', which is not among the skill's providers "
                        + "[searcher, writer]");
    }

    static Stream<Object[]> invalidDeposits() {
        return Stream.of(
                new Object[]{"-1", "deposit \"-1\" is not a USDC amount"},
                new Object[]{"0.1234567", "fraction digits"},
                new Object[]{"abc", "is not a USDC amount"},
                new Object[]{"0", "deposit must be more than 0 USDC"},
                new Object[]{"1e3", "is not a USDC amount"});
    }

    @ParameterizedTest
    @MethodSource("invalidDeposits")
    void refusesADepositThatIsNotAUsdcAmount(String deposit, String message) {
        assertThat(problems(s -> provider(s, 0).put("deposit", deposit)))
                .singleElement().asString().startsWith("provider 'searcher': deposit").contains(message);
    }

    @Test
    void refusesADepositGivenAsANumber() {
        assertThat(problems(s -> provider(s, 0).put("deposit", 0.2))).containsExactly(
                "provider 'searcher': deposit must be a USDC amount as a decimal string, such as \"0.50\"");
    }

    @Test
    void refusesAProviderWithoutModels() {
        assertThat(problems(s -> provider(s, 1).putArray("models")))
                .containsExactly("provider 'writer': models must be a non-empty array of model names");
    }

    @Test
    void refusesTwoProvidersWithTheSameRole() {
        assertThat(problems(s -> provider(s, 1).put("role", "searcher")))
                .contains("providers[1].role 'searcher' is used by another provider");
    }

    @Test
    void refusesDuplicateStepIds() {
        assertThat(problems(s -> step(s, 2).put("id", "draft"))).contains("step id 'draft' is used twice");
    }

    @Test
    void refusesAStepWithoutMessage() {
        assertThat(problems(s -> step(s, 0).remove("message")))
                .containsExactly("step 'search' needs a message object (the payload sent to its provider)");
    }

    @Test
    void refusesUserPromptAsAStepId() {
        assertThat(problems(s -> step(s, 0).put("id", "user_prompt")))
                .anySatisfy(p -> assertThat(p).startsWith("steps[0].id must be"));
    }

    @Test
    void refusesAnOutputThatNamesNoStep() {
        assertThat(problems(s -> s.put("output", "summary")))
                .containsExactly("output must name the step whose result the skill returns");
    }

    @Test
    void refusesAMissingNameAndEmptyLists() {
        assertThat(problems(s -> s.remove("name"))).containsExactly("name is required");
        assertThat(problems(s -> s.putArray("steps"))).contains("steps must be a non-empty array");
        assertThat(problems(s -> s.putArray("providers"))).contains("providers must be a non-empty array");
    }

    @Test
    void refusesASlugThatDiffersFromTheDocuments() {
        assertThat(problems(s -> s.put("slug", "other"))).containsExactly(
                "the document's slug 'other' differs from 'research-and-review'");
    }

    @Test
    void refusesAMalformedSlug() {
        assertThatThrownBy(() -> SkillValidator.validate("Research_Summary", valid()))
                .isInstanceOf(InvalidSkillException.class)
                .hasMessageStartingWith("slug 'Research_Summary' must be lowercase letters and digits");
    }

    @Test
    void reportsEveryProblemAtOnce() {
        assertThat(problems(s -> {
            provider(s, 0).put("deposit", "free");
            step(s, 2).put("role", "reviewer");
        })).hasSize(2);
    }

    @Test
    void theShippedSkillsAreValid() throws IOException, InvalidSkillException {
        Path directory = Path.of("..", "deploy", "skills");
        List<Path> files;
        try (Stream<Path> listing = Files.list(directory)) {
            files = listing.filter(p -> p.toString().endsWith(".json")).sorted().toList();
        }
        assertThat(files).hasSizeGreaterThanOrEqualTo(3);
        for (Path file : files) {
            String slug = file.getFileName().toString().replace(".json", "");
            JsonNode accepted = SkillValidator.validate(slug, JSON.readTree(file.toFile()));
            assertThat(accepted.path("steps").size()).as(slug).isGreaterThanOrEqualTo(2);
            assertThat(Map.of("slug", accepted.path("slug").asText())).containsEntry("slug", slug);
        }
    }
}
