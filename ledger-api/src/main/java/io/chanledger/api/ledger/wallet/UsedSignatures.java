package io.chanledger.api.ledger.wallet;

import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Signatures already used for a request, in the database so that every instance refuses them and
 * a restart forgets none. Entries are kept until their signature would have expired anyway, then
 * deleted in passing, at most once a minute.
 */
@Component
class UsedSignatures {

    private static final long PURGE_INTERVAL_MILLIS = 60_000;

    private final JdbcTemplate jdbc;
    private final Clock clock;
    private final AtomicLong nextPurge = new AtomicLong();

    UsedSignatures(DataSource dataSource, Clock clock) {
        this.jdbc = new JdbcTemplate(dataSource);
        this.clock = clock;
    }

    /** Records the signature; false when it was recorded before. Its own transaction: a later failure keeps it used. */
    boolean firstUse(String signatureHash, String address, Instant expiresAt) {
        purgeExpired();
        try {
            jdbc.update("INSERT INTO wallet_auth_signature (signature_hash, address, expires_at) VALUES (?, ?, ?)",
                    signatureHash, address, OffsetDateTime.ofInstant(expiresAt, ZoneOffset.UTC));
            return true;
        } catch (DuplicateKeyException used) {
            return false;
        }
    }

    private void purgeExpired() {
        long now = clock.millis();
        long due = nextPurge.get();
        if (now >= due && nextPurge.compareAndSet(due, now + PURGE_INTERVAL_MILLIS)) {
            jdbc.update("DELETE FROM wallet_auth_signature WHERE expires_at < ?",
                    OffsetDateTime.ofInstant(Instant.ofEpochMilli(now), ZoneOffset.UTC));
        }
    }
}
