package io.chanledger.api.provider.x402;

import io.chanledger.api.provider.x402.X402Settlement.PaymentRecord;
import io.chanledger.api.provider.x402.X402Settlement.PaymentStatus;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The {@code x402_payment} rows: one per (payer, nonce), moved between statuses only by
 * conditional updates, so that of two requests (or instances) racing for one payment exactly one
 * wins each step and the other sees what happened.
 */
final class X402Payments {

    /** A row with what settling and recovering it needs beyond {@link PaymentRecord}. */
    record Row(PaymentRecord record, String signature, BigInteger validAfter, BigInteger validBefore,
               String reservationId, Long txNonce, String rawTransaction, Instant sentAt) {

        PaymentKey key() {
            return record.key();
        }

        PaymentStatus status() {
            return record.status();
        }
    }

    private static final String COLUMNS = "payer, nonce, pay_to, amount, valid_after, valid_before, signature, status,"
            + " reservation_id, model, tx_hash, tx_nonce, raw_tx, block_number, failure, reserved_at, sent_at, settled_at";

    private final JdbcTemplate jdbc;

    X402Payments(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** Inserts a new reservation; false when the payment has a row already. */
    boolean insertReserved(ExactAuthorization a, String signature, String reservationId, Instant now) {
        return jdbc.update("INSERT INTO x402_payment (payer, nonce, pay_to, amount, valid_after, valid_before, signature,"
                        + " status, reservation_id, reserved_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'RESERVED', ?, ?)"
                        + " ON CONFLICT (payer, nonce) DO NOTHING",
                a.from(), a.nonce(), a.to(), new BigDecimal(a.value()), new BigDecimal(a.validAfter()),
                new BigDecimal(a.validBefore()), signature, reservationId, Timestamp.from(now)) == 1;
    }

    /** Takes a released payment again; false when it is not released. */
    boolean reserveReleased(PaymentKey key, String reservationId, Instant now) {
        return jdbc.update("UPDATE x402_payment SET status = 'RESERVED', reservation_id = ?, reserved_at = ?"
                + " WHERE payer = ? AND nonce = ? AND status = 'RELEASED'", reservationId, Timestamp.from(now),
                key.payer(), key.nonce()) == 1;
    }

    /** Releases the reservation {@code reservationId} if it still holds the payment. */
    boolean release(PaymentKey key, String reservationId) {
        return jdbc.update("UPDATE x402_payment SET status = 'RELEASED' WHERE payer = ? AND nonce = ?"
                + " AND reservation_id = ? AND status = 'RESERVED'", key.payer(), key.nonce(), reservationId) == 1;
    }

    /** Writes the signed transaction down; only the holder of the reservation can. */
    boolean markSending(PaymentKey key, String reservationId, String model, String txHash, long txNonce,
                        String rawTransaction, Instant now) {
        return jdbc.update("UPDATE x402_payment SET status = 'SENDING', model = ?, tx_hash = ?, tx_nonce = ?,"
                        + " raw_tx = ?, sent_at = ? WHERE payer = ? AND nonce = ? AND reservation_id = ?"
                        + " AND status = 'RESERVED'", model, txHash, txNonce, rawTransaction, Timestamp.from(now),
                key.payer(), key.nonce(), reservationId) == 1;
    }

    /** SENDING → SETTLED; false when someone else concluded it first. */
    boolean markSettled(PaymentKey key, long blockNumber, Instant now) {
        return jdbc.update("UPDATE x402_payment SET status = 'SETTLED', block_number = ?, settled_at = ?"
                + " WHERE payer = ? AND nonce = ? AND status = 'SENDING'", blockNumber, Timestamp.from(now),
                key.payer(), key.nonce()) == 1;
    }

    /** SENDING (or, with nothing sent, the holder's RESERVED) → FAILED. */
    boolean markFailed(PaymentKey key, String reservationId, X402Reason reason, String model, Instant now) {
        return jdbc.update("UPDATE x402_payment SET status = 'FAILED', failure = ?, model = COALESCE(model, ?),"
                        + " settled_at = ? WHERE payer = ? AND nonce = ? AND (status = 'SENDING'"
                        + " OR (status = 'RESERVED' AND reservation_id = ?))", reason.code(), model,
                Timestamp.from(now), key.payer(), key.nonce(), reservationId) == 1;
    }

    Optional<Row> find(PaymentKey key) {
        return jdbc.query("SELECT " + COLUMNS + " FROM x402_payment WHERE payer = ? AND nonce = ?", X402Payments::row,
                key.payer(), key.nonce()).stream().findFirst();
    }

    /**
     * Payments to {@code payTo} sent before {@code sentBefore} and not concluded, and reservations
     * of payments to it taken before {@code reservedBefore}.
     */
    List<Row> unfinished(String payTo, Instant sentBefore, Instant reservedBefore, int limit) {
        return jdbc.query("SELECT " + COLUMNS + " FROM x402_payment WHERE pay_to = ? AND ((status = 'SENDING'"
                + " AND sent_at < ?) OR (status = 'RESERVED' AND reserved_at < ?)) ORDER BY reserved_at LIMIT ?",
                X402Payments::row, payTo, Timestamp.from(sentBefore), Timestamp.from(reservedBefore), limit);
    }

    private static Row row(ResultSet rs, int i) throws SQLException {
        String failure = rs.getString("failure");
        X402Reason reason = null;
        for (X402Reason candidate : X402Reason.values()) {
            if (candidate.code().equals(failure)) {
                reason = candidate;
            }
        }
        PaymentRecord record = new PaymentRecord(new PaymentKey(rs.getString("payer"), rs.getString("nonce")),
                PaymentStatus.valueOf(rs.getString("status")), rs.getString("pay_to"),
                rs.getBigDecimal("amount").toBigIntegerExact(), rs.getString("model"), rs.getString("tx_hash"), reason,
                instant(rs, "reserved_at"), instant(rs, "settled_at"));
        long txNonce = rs.getLong("tx_nonce");
        return new Row(record, rs.getString("signature"), rs.getBigDecimal("valid_after").toBigIntegerExact(),
                rs.getBigDecimal("valid_before").toBigIntegerExact(), rs.getString("reservation_id"),
                rs.wasNull() ? null : txNonce, rs.getString("raw_tx"), instant(rs, "sent_at"));
    }

    private static Instant instant(ResultSet rs, String column) throws SQLException {
        Timestamp t = rs.getTimestamp(column);
        return t == null ? null : t.toInstant();
    }
}
