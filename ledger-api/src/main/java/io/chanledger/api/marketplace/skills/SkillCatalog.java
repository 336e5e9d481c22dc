package io.chanledger.api.marketplace.skills;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import org.springframework.stereotype.Service;

/** Publishes validated skills as versions and renders them for readers. */
@Service
class SkillCatalog {

    private final SkillStore store;
    private final ObjectMapper mapper;
    private final ObjectMapper canonical;
    private final Clock clock;

    SkillCatalog(SkillStore store, ObjectMapper mapper, Clock clock) {
        this.store = store;
        this.mapper = mapper;
        // the content hash ignores key order, so the same skill written differently is no new version
        this.canonical = mapper.copy().configure(JsonNodeFeature.WRITE_PROPERTIES_SORTED, true);
        this.clock = clock;
    }

    SkillStore.Publication publish(String slug, JsonNode document, String source) throws InvalidSkillException {
        ObjectNode skill = SkillValidator.validate(slug, document);
        try {
            String hash = sha256(canonical.writeValueAsBytes(skill));
            return store.publish(slug, mapper.writeValueAsString(skill), hash, source,
                    clock.instant().truncatedTo(ChronoUnit.MILLIS));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("skill could not be serialized", e);
        }
    }

    Optional<ObjectNode> skill(String slug, Integer version) {
        Optional<SkillStore.StoredSkill> stored = version == null ? store.latest(slug) : store.version(slug, version);
        return stored.map(this::render);
    }

    SkillAnswers.SkillList list() {
        List<SkillAnswers.Summary> skills = new ArrayList<>();
        for (SkillStore.StoredSkill stored : store.latestOfEach()) {
            JsonNode document = parse(stored);
            List<String> roles = new ArrayList<>();
            document.path("providers").forEach(p -> roles.add(p.path("role").asText()));
            skills.add(new SkillAnswers.Summary(stored.slug(), stored.version(), stored.publishedAt(),
                    document.path("name").asText(), document.has("description") ? document.get("description").asText()
                    : null, roles, document.path("steps").size()));
        }
        return new SkillAnswers.SkillList(skills.size(), skills);
    }

    /** The stored document with its version first: slug, version, publishedAt, then the skill's own fields. */
    private ObjectNode render(SkillStore.StoredSkill stored) {
        ObjectNode body = mapper.createObjectNode();
        body.put("slug", stored.slug());
        body.put("version", stored.version());
        body.put("publishedAt", stored.publishedAt().toString());
        ObjectNode document = parse(stored);
        document.remove("slug");
        body.setAll(document);
        return body;
    }

    private ObjectNode parse(SkillStore.StoredSkill stored) {
        try {
            return (ObjectNode) mapper.readTree(stored.document());
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("stored skill " + stored.slug() + " v" + stored.version() + " is not JSON", e);
        }
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
