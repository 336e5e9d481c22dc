package io.chanledger.api.marketplace.skills;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.stereotype.Component;

/** Skill versions in the database: each publication that changes a skill is its next version. */
@Component
class SkillStore {

    record StoredSkill(String slug, int version, String document, String contentHash, String source,
                       Instant publishedAt) {
    }

    /** The version now current, and whether this publication made it. */
    record Publication(StoredSkill skill, boolean created) {
    }

    private static final RowMapper<StoredSkill> ROW = (rs, n) -> new StoredSkill(rs.getString("slug"),
            rs.getInt("version"), rs.getString("document"), rs.getString("content_hash"), rs.getString("source"),
            rs.getObject("published_at", OffsetDateTime.class).toInstant());

    private final JdbcTemplate jdbc;

    SkillStore(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    Optional<StoredSkill> latest(String slug) {
        return jdbc.query("SELECT * FROM marketplace_skill_version WHERE slug = ? ORDER BY version DESC LIMIT 1",
                ROW, slug).stream().findFirst();
    }

    Optional<StoredSkill> version(String slug, int version) {
        return jdbc.query("SELECT * FROM marketplace_skill_version WHERE slug = ? AND version = ?", ROW, slug, version)
                .stream().findFirst();
    }

    List<StoredSkill> latestOfEach() {
        return jdbc.query("SELECT s.* FROM marketplace_skill_version s WHERE s.version = "
                + "(SELECT MAX(m.version) FROM marketplace_skill_version m WHERE m.slug = s.slug) ORDER BY s.slug", ROW);
    }

    /**
     * Stores the document as the next version unless the current version has the same content.
     * Two instances publishing at once race for the same version number; the loser reads again.
     */
    Publication publish(String slug, String document, String contentHash, String source, Instant at) {
        for (int attempt = 0; ; attempt++) {
            Optional<StoredSkill> current = latest(slug);
            if (current.isPresent() && current.get().contentHash().equals(contentHash)) {
                return new Publication(current.get(), false);
            }
            int next = current.map(s -> s.version() + 1).orElse(1);
            try {
                jdbc.update("INSERT INTO marketplace_skill_version (slug, version, document, content_hash, source, "
                        + "published_at) VALUES (?, ?, ?, ?, ?, ?)", slug, next, document, contentHash, source,
                        at.atOffset(ZoneOffset.UTC));
                return new Publication(new StoredSkill(slug, next, document, contentHash, source, at), true);
            } catch (DuplicateKeyException e) {
                if (attempt >= 3) {
                    throw e;
                }
            }
        }
    }
}
