package io.chanledger.projections.earnings;

import static io.chanledger.projections.readmodel.Sql.instant;
import static io.chanledger.projections.readmodel.Sql.setInstant;
import static io.chanledger.projections.readmodel.Sql.setUint;
import static io.chanledger.projections.readmodel.Sql.uint;

import io.chanledger.domain.channel.ChannelClaimed;
import io.chanledger.projections.readmodel.Sql;
import java.math.BigInteger;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The tables {@code earnings_request} and {@code earnings_claim}, and the provider's figures read
 * from them and from {@code channel_balance}: what its dashboard shows. Amounts are base units.
 */
public class EarningsTable {

    /** The longest model id kept; a longer one (the gateway's ids are short) is cut, not refused. */
    static final int MODEL_LENGTH = 200;

    /** Totals over the provider's channels, from the channel read model. */
    public record Totals(long channels, long openChannels, BigInteger charged, BigInteger claimed, BigInteger fees,
                         BigInteger claimable, BigInteger unclaimedCharged, BigInteger returned) {
    }

    /** What one model or service earned: its paid requests' charges, and how many were charged. */
    public record ModelRevenue(String model, BigInteger charged, long requests) {
    }

    /** One UTC day: charged by the requests settled that day, claimed (gross) and fees by its claims. */
    public record Day(LocalDate day, BigInteger charged, long requests, BigInteger claimed, BigInteger fees) {
    }

    /** One on-chain claim. */
    public record Claim(String channelId, BigInteger payout, BigInteger fee, BigInteger totalClaimed, String txHash,
                        long blockNumber, Instant at) {
    }

    /**
     * A channel whose charged-but-unclaimed money may be lost: not closed, and either closing (a
     * close authorization is out) or expiring within the window asked for (or expired already).
     */
    public record AtRisk(String channelId, String consumer, String status, boolean closing, long expiry,
                         BigInteger atStake, BigInteger claimable) {
    }

    private final JdbcTemplate jdbc;

    public EarningsTable(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * What a batch of events changes, gathered in memory in event order: per paid request (channel
     * and nonce) its model if its voucher is in the batch and its latest settlement, and the claims.
     */
    public static final class Batch {

        private static final class Request {
            String model;
            BigInteger charged;
            Long settledAt;
        }

        private record Key(String channelId, BigInteger nonce) {
        }

        private record ClaimSeen(ChannelClaimed claim, Instant recordedAt) {
        }

        private final Map<Key, Request> requests = new LinkedHashMap<>();
        private final List<ClaimSeen> claims = new ArrayList<>();

        void admitted(String channelId, BigInteger nonce, String model) {
            requests.computeIfAbsent(new Key(channelId, nonce), k -> new Request()).model =
                    model.length() > MODEL_LENGTH ? model.substring(0, MODEL_LENGTH) : model;
        }

        void settled(String channelId, BigInteger nonce, BigInteger charged, long settledAt) {
            Request request = requests.computeIfAbsent(new Key(channelId, nonce), k -> new Request());
            request.charged = charged;
            request.settledAt = settledAt;
        }

        void claimed(ChannelClaimed claim, Instant recordedAt) {
            claims.add(new ClaimSeen(claim, recordedAt));
        }
    }

    /**
     * Writes a batch: the requests whose voucher it holds are inserted with what their settlement
     * charged if it is in the batch too (unless a row is there already); a settlement whose request
     * was not inserted here (its voucher came in an earlier batch, or the row existed) updates the
     * row; the claims are inserted unless kept already. A settlement of a request with no row (a
     * voucher recorded before models were kept) changes nothing.
     */
    void write(Batch batch) {
        List<Map.Entry<Batch.Key, Batch.Request>> admitted = new ArrayList<>();
        List<Map.Entry<Batch.Key, Batch.Request>> settled = new ArrayList<>();
        for (Map.Entry<Batch.Key, Batch.Request> entry : batch.requests.entrySet()) {
            // an entry without a model was made by a settlement, so it has one
            (entry.getValue().model != null ? admitted : settled).add(entry);
        }
        if (!admitted.isEmpty()) {
            int[] inserted = jdbc.batchUpdate("INSERT INTO earnings_request (channel_id, nonce, model, charged,"
                            + " settled_at) SELECT ?, ?, ?, ?, ? WHERE NOT EXISTS"
                            + " (SELECT 1 FROM earnings_request WHERE channel_id = ? AND nonce = ?)", admitted,
                    admitted.size(), (s, entry) -> {
                        Batch.Request request = entry.getValue();
                        s.setString(1, entry.getKey().channelId());
                        setUint(s, 2, entry.getKey().nonce());
                        s.setString(3, request.model);
                        setUint(s, 4, request.charged == null ? BigInteger.ZERO : request.charged);
                        s.setObject(5, request.settledAt, Types.BIGINT);
                        s.setString(6, entry.getKey().channelId());
                        setUint(s, 7, entry.getKey().nonce());
                    })[0];
            for (int i = 0; i < admitted.size(); i++) {
                if (admitted.get(i).getValue().settledAt != null && inserted[i] == 0) {
                    settled.add(admitted.get(i)); // handled before: its row takes this settlement
                }
            }
        }
        if (!settled.isEmpty()) {
            jdbc.batchUpdate("UPDATE earnings_request SET charged = ?, settled_at = ? WHERE channel_id = ? AND nonce = ?",
                    settled, settled.size(), (s, entry) -> {
                        setUint(s, 1, entry.getValue().charged);
                        s.setLong(2, entry.getValue().settledAt);
                        s.setString(3, entry.getKey().channelId());
                        setUint(s, 4, entry.getKey().nonce());
                    });
        }
        for (Batch.ClaimSeen seen : batch.claims) {
            claimed(seen.claim(), seen.recordedAt());
        }
    }

    private void claimed(ChannelClaimed claim, Instant recordedAt) {
        jdbc.update(connection -> {
            var s = connection.prepareStatement("INSERT INTO earnings_claim (channel_id, total_claimed, provider,"
                    + " payout, fee, tx_hash, block_number, claimed_at) SELECT ?, ?, ?, ?, ?, ?, ?, ? WHERE NOT EXISTS"
                    + " (SELECT 1 FROM earnings_claim WHERE channel_id = ? AND total_claimed = ?)");
            s.setString(1, claim.channelId());
            setUint(s, 2, claim.totalClaimed());
            s.setString(3, claim.provider().toLowerCase(Locale.ROOT));
            setUint(s, 4, claim.payout());
            setUint(s, 5, claim.fee());
            s.setString(6, claim.chainRef().txHash());
            s.setLong(7, claim.chainRef().blockNumber());
            setInstant(s, 8, recordedAt);
            s.setString(9, claim.channelId());
            setUint(s, 10, claim.totalClaimed());
            return s;
        });
    }

    void deleteAll() {
        Sql.clear(jdbc, "earnings_request");
        Sql.clear(jdbc, "earnings_claim");
    }

    /** {@code provider} (lowercase) summed over its channels. */
    public Totals totals(String provider) {
        return jdbc.queryForObject("SELECT COUNT(*) AS channels,"
                        + " COUNT(*) FILTER (WHERE status = 'open') AS open_channels,"
                        + " COALESCE(SUM(charged_total), 0) AS charged, COALESCE(SUM(claimed), 0) AS claimed,"
                        + " COALESCE(SUM(fees_paid), 0) AS fees, COALESCE(SUM(claimable), 0) AS claimable,"
                        + " COALESCE(SUM(GREATEST(charged_total - claimed, 0)) FILTER (WHERE status <> 'closed'), 0)"
                        + " AS unclaimed_charged, COALESCE(SUM(returned), 0) AS returned"
                        + " FROM channel_balance WHERE provider = ?",
                (r, n) -> new Totals(r.getLong("channels"), r.getLong("open_channels"), uint(r, "charged"),
                        uint(r, "claimed"), uint(r, "fees"), uint(r, "claimable"), uint(r, "unclaimed_charged"),
                        uint(r, "returned")),
                provider);
    }

    /** The provider's revenue per model, most charged first. */
    public List<ModelRevenue> perModel(String provider) {
        return jdbc.query("SELECT r.model, SUM(r.charged) AS charged, COUNT(*) FILTER (WHERE r.charged > 0) AS requests"
                        + " FROM earnings_request r JOIN channel_balance b ON b.channel_id = r.channel_id"
                        + " WHERE b.provider = ? AND r.settled_at IS NOT NULL"
                        + " GROUP BY r.model ORDER BY charged DESC, r.model",
                (r, n) -> new ModelRevenue(r.getString("model"), uint(r, "charged"), r.getLong("requests")),
                provider);
    }

    /** The provider's days with a charge or a claim from {@code since} (epoch seconds) on, oldest first. */
    public List<Day> days(String provider, long since) {
        return jdbc.query("SELECT day, SUM(charged) AS charged, SUM(requests) AS requests, SUM(claimed) AS claimed,"
                        + " SUM(fees) AS fees FROM ("
                        + " SELECT r.settled_at / 86400 AS day, r.charged, CASE WHEN r.charged > 0 THEN 1 ELSE 0 END"
                        + " AS requests, 0 AS claimed, 0 AS fees"
                        + " FROM earnings_request r JOIN channel_balance b ON b.channel_id = r.channel_id"
                        + " WHERE b.provider = ? AND r.settled_at >= ?"
                        + " UNION ALL SELECT CAST(FLOOR(EXTRACT(EPOCH FROM c.claimed_at) / 86400) AS BIGINT), 0, 0,"
                        + " c.payout, c.fee FROM earnings_claim c WHERE c.provider = ? AND c.claimed_at >= ?"
                        + ") activity GROUP BY day ORDER BY day",
                (r, n) -> new Day(LocalDate.ofEpochDay(r.getLong("day")), uint(r, "charged"), r.getLong("requests"),
                        uint(r, "claimed"), uint(r, "fees")),
                provider, since, provider, java.sql.Timestamp.from(Instant.ofEpochSecond(since)));
    }

    /** The provider's latest claims, newest first. */
    public List<Claim> claims(String provider, int limit) {
        return jdbc.query("SELECT channel_id, payout, fee, total_claimed, tx_hash, block_number, claimed_at"
                        + " FROM earnings_claim WHERE provider = ? ORDER BY claimed_at DESC, block_number DESC,"
                        + " channel_id, total_claimed DESC LIMIT ?",
                (r, n) -> new Claim(r.getString("channel_id"), uint(r, "payout"), uint(r, "fee"),
                        uint(r, "total_claimed"), r.getString("tx_hash"), r.getLong("block_number"),
                        instant(r, "claimed_at")),
                provider, limit);
    }

    /**
     * The provider's channels at risk at {@code now} (epoch seconds) with a window of
     * {@code windowSeconds}, most urgent first: a closing channel counts as expiring now.
     */
    public List<AtRisk> atRisk(String provider, long now, long windowSeconds, int limit) {
        return jdbc.query("SELECT channel_id, consumer, status, authorized_close_amount IS NOT NULL AS closing, expiry,"
                        + " charged_total - claimed AS at_stake, claimable FROM channel_balance"
                        + " WHERE provider = ? AND status <> 'closed' AND charged_total > claimed"
                        + " AND (expiry <= ? OR authorized_close_amount IS NOT NULL)"
                        + " ORDER BY CASE WHEN authorized_close_amount IS NOT NULL THEN LEAST(expiry, ?) ELSE expiry END,"
                        + " charged_total - claimed DESC, channel_id LIMIT ?",
                (r, n) -> new AtRisk(r.getString("channel_id"), r.getString("consumer"), r.getString("status"),
                        r.getBoolean("closing"), r.getLong("expiry"), uint(r, "at_stake"), uint(r, "claimable")),
                provider, now + windowSeconds, now, limit);
    }
}
