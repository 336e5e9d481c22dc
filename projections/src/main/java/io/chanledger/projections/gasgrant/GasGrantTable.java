package io.chanledger.projections.gasgrant;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import org.springframework.jdbc.core.JdbcTemplate;

/** The {@code gas_grant} table: one row per wallet, the state of its latest attempt. */
public class GasGrantTable {

    private static final String COLUMNS = "wallet, status, attempt_id, amount, faucet, faucet_nonce, from_block,"
            + " tx_hash, tx_nonce, block_number, failure, attempts, reserved_at, updated_at";
    private static final List<String> PENDING = List.of(GasGrantRow.Status.RESERVED.column(),
            GasGrantRow.Status.SEND_STARTED.column(), GasGrantRow.Status.BROADCAST.column());

    private final JdbcTemplate jdbc;

    public GasGrantTable(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    public Optional<GasGrantRow> find(String wallet) {
        return jdbc.query("SELECT " + COLUMNS + " FROM gas_grant WHERE wallet = ?", GasGrantTable::row, wallet)
                .stream().findFirst();
    }

    /** Attempts not yet granted or failed, oldest first. */
    public List<GasGrantRow> pending(int limit) {
        return jdbc.query("SELECT " + COLUMNS + " FROM gas_grant WHERE status IN (?, ?, ?) ORDER BY reserved_at LIMIT ?",
                GasGrantTable::row, PENDING.get(0), PENDING.get(1), PENDING.get(2), limit);
    }

    /** A new attempt: the row is created, or reset from the previous attempt's state. */
    public void reserved(String wallet, String attemptId, BigInteger amount, Instant reservedAt, Instant at) {
        int updated = jdbc.update("UPDATE gas_grant SET status = ?, attempt_id = ?, amount = ?, faucet = NULL,"
                        + " faucet_nonce = NULL, from_block = NULL, tx_hash = NULL, tx_nonce = NULL, block_number = NULL,"
                        + " failure = NULL, attempts = attempts + 1, reserved_at = ?, updated_at = ? WHERE wallet = ?",
                GasGrantRow.Status.RESERVED.column(), attemptId, new BigDecimal(amount), time(reservedAt), time(at), wallet);
        if (updated == 0) {
            jdbc.update("INSERT INTO gas_grant (" + COLUMNS + ") VALUES (?, ?, ?, ?, NULL, NULL, NULL, NULL, NULL, NULL,"
                            + " NULL, 1, ?, ?)",
                    wallet, GasGrantRow.Status.RESERVED.column(), attemptId, new BigDecimal(amount), time(reservedAt),
                    time(at));
        }
    }

    public void sendStarted(String wallet, String attemptId, String faucet, long faucetNonce, long fromBlock, Instant at) {
        jdbc.update("UPDATE gas_grant SET status = ?, faucet = ?, faucet_nonce = ?, from_block = ?, updated_at = ?"
                        + " WHERE wallet = ? AND attempt_id = ?",
                GasGrantRow.Status.SEND_STARTED.column(), faucet, faucetNonce, fromBlock, time(at), wallet, attemptId);
    }

    public void broadcast(String wallet, String attemptId, String txHash, Long txNonce, Instant at) {
        jdbc.update("UPDATE gas_grant SET status = ?, tx_hash = ?, tx_nonce = ?, updated_at = ?"
                        + " WHERE wallet = ? AND attempt_id = ?",
                GasGrantRow.Status.BROADCAST.column(), txHash, txNonce, time(at), wallet, attemptId);
    }

    public void granted(String wallet, String attemptId, String txHash, long blockNumber, Instant at) {
        jdbc.update("UPDATE gas_grant SET status = ?, tx_hash = ?, block_number = ?, failure = NULL, updated_at = ?"
                        + " WHERE wallet = ? AND attempt_id = ?",
                GasGrantRow.Status.GRANTED.column(), txHash, blockNumber, time(at), wallet, attemptId);
    }

    public void failed(String wallet, String attemptId, String failure, String txHash, Instant at) {
        jdbc.update("UPDATE gas_grant SET status = ?, failure = ?, tx_hash = ?, updated_at = ?"
                        + " WHERE wallet = ? AND attempt_id = ?",
                GasGrantRow.Status.FAILED.column(), failure, txHash, time(at), wallet, attemptId);
    }

    private static GasGrantRow row(ResultSet rs, int index) throws SQLException {
        return new GasGrantRow(rs.getString("wallet"), GasGrantRow.Status.ofColumn(rs.getString("status")),
                rs.getString("attempt_id"), rs.getBigDecimal("amount").toBigIntegerExact(), rs.getString("faucet"),
                nullableLong(rs, "faucet_nonce"), nullableLong(rs, "from_block"), rs.getString("tx_hash"),
                nullableLong(rs, "tx_nonce"), nullableLong(rs, "block_number"), rs.getString("failure"),
                rs.getInt("attempts"), instant(rs, "reserved_at"), instant(rs, "updated_at"));
    }

    private static Long nullableLong(ResultSet rs, String column) throws SQLException {
        long value = rs.getLong(column);
        return rs.wasNull() ? null : value;
    }

    private static OffsetDateTime time(Instant instant) {
        return OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
    }

    private static Instant instant(ResultSet rs, String column) throws SQLException {
        OffsetDateTime value = rs.getObject(column, OffsetDateTime.class);
        return value == null ? null : value.toInstant();
    }
}
