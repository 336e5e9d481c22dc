package io.chanledger.api.provider.watchtower;

import java.sql.Timestamp;
import java.time.Clock;
import java.util.List;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The channels the watchtower guards because the gateway handed out a close authorization on a
 * request that did not prove it came from the consumer (table {@code gateway_close_watch}).
 * Written by whichever instance signed the authorization, read by the one running the watchtower.
 */
public final class CloseWatch {

    private final JdbcTemplate jdbc;
    private final Clock clock;

    public CloseWatch(JdbcTemplate jdbc, Clock clock) {
        this.jdbc = jdbc;
        this.clock = clock;
    }

    public void watch(String channelId, String provider) {
        jdbc.update("INSERT INTO gateway_close_watch (channel_id, provider, created_at) SELECT ?, ?, ?"
                        + " WHERE NOT EXISTS (SELECT 1 FROM gateway_close_watch WHERE channel_id = ?)",
                channelId, provider, Timestamp.from(clock.instant()), channelId);
    }

    List<String> channels(String provider) {
        return jdbc.queryForList("SELECT channel_id FROM gateway_close_watch WHERE provider = ? ORDER BY created_at",
                String.class, provider);
    }

    void forget(String channelId) {
        jdbc.update("DELETE FROM gateway_close_watch WHERE channel_id = ?", channelId);
    }
}
