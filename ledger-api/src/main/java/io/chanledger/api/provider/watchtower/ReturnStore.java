package io.chanledger.api.provider.watchtower;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;

/** The watchtower's returns of excess claims ({@code gateway_excess_return}): what was sent, how it went. */
final class ReturnStore {

    enum Status {
        /** Nothing that could still land was broadcast: the amount may still change, the transfer be signed. */
        PENDING,
        /** A signed transfer ({@code txHash}, {@code nonce}, its bytes) was handed, or was about to be handed, to the node. */
        SENT,
        /** Mined and recorded as the channel's {@code ExcessReturned}: done. */
        CONFIRMED
    }

    record Return(String channelId, BigInteger returnedTotal, BigInteger amount, String provider, String consumer,
                  Status status, int attempts, Instant nextAttemptAt, String txHash, BigInteger txNonce,
                  String rawTransaction, String lastError) {

        Return with(Status newStatus, Instant next, String error) {
            return new Return(channelId, returnedTotal, amount, provider, consumer, newStatus, attempts, next, txHash,
                    txNonce, rawTransaction, error == null ? null : error.length() > 1000 ? error.substring(0, 1000)
                    : error);
        }

        Return signed(String hash, BigInteger nonce, String raw) {
            return new Return(channelId, returnedTotal, amount, provider, consumer, Status.SENT, attempts,
                    nextAttemptAt, hash, nonce, raw, lastError);
        }

        /** Back to unsent: the transaction signed earlier can never land (its nonce went to another). */
        Return unsent(Instant next, String error) {
            return new Return(channelId, returnedTotal, amount, provider, consumer, Status.PENDING, attempts, next,
                    null, null, null, error);
        }

        Return tried() {
            return new Return(channelId, returnedTotal, amount, provider, consumer, status, attempts + 1,
                    nextAttemptAt, txHash, txNonce, rawTransaction, lastError);
        }
    }

    private static final String COLUMNS = "channel_id, returned_total, amount, provider, consumer, status, attempts,"
            + " next_attempt_at, tx_hash, tx_nonce, raw_transaction, last_error";
    private static final RowMapper<Return> ROW = (rows, n) -> map(rows);

    private final JdbcTemplate jdbc;

    ReturnStore(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    List<Return> ofChannel(String channelId) {
        return jdbc.query("SELECT " + COLUMNS + " FROM gateway_excess_return WHERE channel_id = ?"
                + " ORDER BY returned_total", ROW, channelId);
    }

    /** The channel's return not confirmed yet, if any: at most one is ever open. */
    Optional<Return> open(String channelId) {
        return jdbc.query("SELECT " + COLUMNS + " FROM gateway_excess_return WHERE channel_id = ? AND status <> ?",
                ROW, channelId, Status.CONFIRMED.name()).stream().findFirst();
    }

    void insert(Return item, Instant now) {
        jdbc.update("INSERT INTO gateway_excess_return (" + COLUMNS + ", created_at, updated_at)"
                        + " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                item.channelId(), new BigDecimal(item.returnedTotal()), new BigDecimal(item.amount()), item.provider(),
                item.consumer(), item.status().name(), item.attempts(), Timestamp.from(item.nextAttemptAt()),
                item.txHash(), item.txNonce() == null ? null : new BigDecimal(item.txNonce()), item.rawTransaction(),
                item.lastError(), Timestamp.from(now), Timestamp.from(now));
    }

    /** Writes the row as {@code item} has it; an unsent row may take a new amount (and so a new key). */
    void update(Return before, Return item, Instant now) {
        jdbc.update("UPDATE gateway_excess_return SET returned_total = ?, amount = ?, status = ?, attempts = ?,"
                        + " next_attempt_at = ?, tx_hash = ?, tx_nonce = ?, raw_transaction = ?, last_error = ?,"
                        + " updated_at = ? WHERE channel_id = ? AND returned_total = ?",
                new BigDecimal(item.returnedTotal()), new BigDecimal(item.amount()), item.status().name(),
                item.attempts(), Timestamp.from(item.nextAttemptAt()), item.txHash(),
                item.txNonce() == null ? null : new BigDecimal(item.txNonce()), item.rawTransaction(),
                item.lastError(), Timestamp.from(now), before.channelId(), new BigDecimal(before.returnedTotal()));
    }

    private static Return map(ResultSet r) throws SQLException {
        BigDecimal nonce = r.getBigDecimal("tx_nonce");
        return new Return(r.getString("channel_id"), r.getBigDecimal("returned_total").toBigIntegerExact(),
                r.getBigDecimal("amount").toBigIntegerExact(), r.getString("provider"), r.getString("consumer"),
                Status.valueOf(r.getString("status")), r.getInt("attempts"),
                r.getTimestamp("next_attempt_at").toInstant(), r.getString("tx_hash"),
                nonce == null ? null : nonce.toBigIntegerExact(), r.getString("raw_transaction"),
                r.getString("last_error"));
    }
}
