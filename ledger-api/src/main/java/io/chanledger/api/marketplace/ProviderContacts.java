package io.chanledger.api.marketplace;

import java.time.Instant;
import java.time.ZoneOffset;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/** The contact a provider gave, kept beside the event store so that it can be corrected or erased. */
@Component
class ProviderContacts {

    private final JdbcTemplate jdbc;

    ProviderContacts(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    void save(String providerId, String contact, Instant at) {
        int updated = jdbc.update("UPDATE marketplace_provider_contact SET contact = ?, updated_at = ? WHERE provider_id = ?",
                contact, at.atOffset(ZoneOffset.UTC), providerId);
        if (updated == 0) {
            jdbc.update("INSERT INTO marketplace_provider_contact (provider_id, contact, updated_at) VALUES (?, ?, ?)",
                    providerId, contact, at.atOffset(ZoneOffset.UTC));
        }
    }
}
