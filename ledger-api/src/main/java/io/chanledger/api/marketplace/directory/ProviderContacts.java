package io.chanledger.api.marketplace.directory;

import java.time.Instant;
import java.time.ZoneOffset;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * The contacts a provider gave (a free-form contact and an e-mail address, either may be null),
 * kept beside the event store so that they can be corrected or erased. The e-mail address is for
 * the operator and is not published.
 */
@Component
class ProviderContacts {

    private final JdbcTemplate jdbc;

    ProviderContacts(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    void save(String providerId, String contact, String contactEmail, Instant at) {
        int updated = jdbc.update("UPDATE marketplace_provider_contact SET contact = ?, contact_email = ?, updated_at = ? "
                + "WHERE provider_id = ?", contact, contactEmail, at.atOffset(ZoneOffset.UTC), providerId);
        if (updated == 0) {
            jdbc.update("INSERT INTO marketplace_provider_contact (provider_id, contact, contact_email, updated_at) "
                    + "VALUES (?, ?, ?, ?)", providerId, contact, contactEmail, at.atOffset(ZoneOffset.UTC));
        }
    }
}
