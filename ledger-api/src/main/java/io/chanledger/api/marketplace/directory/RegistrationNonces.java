package io.chanledger.api.marketplace.directory;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Nonces of registration signatures already used. A nonce is taken once per address; entries
 * older than the longest time a signature stays acceptable are dropped, since a signature that
 * old is refused for its age anyway.
 */
@Component
class RegistrationNonces {

    private final JdbcTemplate jdbc;
    private final Duration retention;

    RegistrationNonces(JdbcTemplate jdbc, MarketplaceProperties properties) {
        this.jdbc = jdbc;
        this.retention = properties.registration().signatureMaxAge().plus(properties.registration().signatureMaxSkew());
    }

    /** Takes the nonce; false when it was taken before. */
    boolean take(String address, String nonce, Instant now) {
        jdbc.update("DELETE FROM marketplace_registration_nonce WHERE used_at < ?",
                now.minus(retention).atOffset(ZoneOffset.UTC));
        try {
            jdbc.update("INSERT INTO marketplace_registration_nonce (address, nonce, used_at) VALUES (?, ?, ?)",
                    address, nonce, now.atOffset(ZoneOffset.UTC));
            return true;
        } catch (DuplicateKeyException e) {
            return false;
        }
    }
}
