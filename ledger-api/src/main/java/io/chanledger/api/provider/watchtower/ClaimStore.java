package io.chanledger.api.provider.watchtower;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.stereotype.Component;

/** The watchtower's claims ({@code gateway_claim}): what was tried, how it went, what comes next. */
@Component
public class ClaimStore {

    enum Status {
        /** Not sent yet, or to be sent again after {@code nextAttemptAt}. */
        PENDING,
        /** Broadcast ({@code txHash}) without a receipt yet. */
        SENT,
        /** Mined and succeeded; waiting for the chain listener to record the ChannelClaimed. */
        MINED,
        /** The listener recorded the claim: done. */
        CONFIRMED,
        /** Failed for good: not tried again. */
        FAILED
    }

    record Claim(String channelId, BigInteger amount, String provider, BigInteger nonce, ClaimPlanner.Reason reason,
                 Status status, int attempts, int failures, Instant nextAttemptAt, String txHash, String lastError) {

        Claim with(Status newStatus, Instant next, String newTxHash, String error) {
            return new Claim(channelId, amount, provider, nonce, reason, newStatus, attempts, failures, next, newTxHash,
                    error == null ? null : error.length() > 1000 ? error.substring(0, 1000) : error);
        }

        Claim tried() {
            return new Claim(channelId, amount, provider, nonce, reason, status, attempts + 1, failures, nextAttemptAt,
                    txHash, lastError);
        }

        Claim failed() {
            return new Claim(channelId, amount, provider, nonce, reason, status, attempts, failures + 1, nextAttemptAt,
                    txHash, lastError);
        }
    }

    private static final String COLUMNS = "channel_id, amount, provider, voucher_nonce, reason, status, attempts,"
            + " failures, next_attempt_at, tx_hash, last_error";
    private static final RowMapper<Claim> ROW = (rows, n) -> map(rows);

    private final JdbcTemplate jdbc;

    ClaimStore(DataSource dataSource) {
        this.jdbc = new JdbcTemplate(dataSource);
    }

    Optional<Claim> find(String channelId, BigInteger amount) {
        return jdbc.query("SELECT " + COLUMNS + " FROM gateway_claim WHERE channel_id = ? AND amount = ?", ROW,
                channelId, new BigDecimal(amount)).stream().findFirst();
    }

    List<Claim> ofChannel(String channelId) {
        return jdbc.query("SELECT " + COLUMNS + " FROM gateway_claim WHERE channel_id = ? ORDER BY amount", ROW,
                channelId);
    }

    /** The highest amount a claim of this channel was mined with: the contract's claimed is at least this. */
    public BigInteger highestMined(String channelId) {
        BigDecimal highest = jdbc.queryForObject("SELECT MAX(amount) FROM gateway_claim WHERE channel_id = ?"
                + " AND status IN ('MINED', 'CONFIRMED')", BigDecimal.class, channelId);
        return highest == null ? BigInteger.ZERO : highest.toBigIntegerExact();
    }

    List<Claim> withStatus(String provider, Status status) {
        return jdbc.query("SELECT " + COLUMNS + " FROM gateway_claim WHERE provider = ? AND status = ?", ROW, provider,
                status.name());
    }

    long count(String provider, Status status) {
        Long count = jdbc.queryForObject("SELECT COUNT(*) FROM gateway_claim WHERE provider = ? AND status = ?",
                Long.class, provider, status.name());
        return count == null ? 0 : count;
    }

    void insert(Claim claim, Instant now) {
        jdbc.update("INSERT INTO gateway_claim (" + COLUMNS + ", created_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                claim.channelId(), new BigDecimal(claim.amount()), claim.provider(), new BigDecimal(claim.nonce()),
                claim.reason().name(), claim.status().name(), claim.attempts(), claim.failures(),
                Timestamp.from(claim.nextAttemptAt()),
                claim.txHash(), claim.lastError(), Timestamp.from(now), Timestamp.from(now));
    }

    void update(Claim claim, Instant now) {
        jdbc.update("UPDATE gateway_claim SET status = ?, attempts = ?, failures = ?, next_attempt_at = ?, tx_hash = ?,"
                        + " last_error = ?, updated_at = ? WHERE channel_id = ? AND amount = ?",
                claim.status().name(), claim.attempts(), claim.failures(), Timestamp.from(claim.nextAttemptAt()),
                claim.txHash(),
                claim.lastError(), Timestamp.from(now), claim.channelId(), new BigDecimal(claim.amount()));
    }

    private static Claim map(ResultSet r) throws SQLException {
        return new Claim(r.getString("channel_id"), r.getBigDecimal("amount").toBigIntegerExact(),
                r.getString("provider"), r.getBigDecimal("voucher_nonce").toBigIntegerExact(),
                ClaimPlanner.Reason.valueOf(r.getString("reason")), Status.valueOf(r.getString("status")),
                r.getInt("attempts"), r.getInt("failures"), r.getTimestamp("next_attempt_at").toInstant(), r.getString("tx_hash"),
                r.getString("last_error"));
    }
}
