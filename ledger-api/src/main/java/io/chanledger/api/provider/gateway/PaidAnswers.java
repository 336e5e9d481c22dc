package io.chanledger.api.provider.gateway;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chanledger.api.eventstore.LoneCommit;
import io.chanledger.domain.channel.SignedVoucher;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Answers paid for, kept by the voucher that paid them (table {@code gateway_answer}) for
 * {@code chan.gateway.answer-retention}. {@link #keep} runs inside the commit of the request's
 * settlement, so a charge is never recorded without its answer being retrievable; {@link #find}
 * gives the answer back to the very same voucher (channel, nonce, amount and signature) while it
 * is retained. Answers above {@code answer-max-bytes} are not kept.
 *
 * <p>An answer paid with x402 is kept by its authorization, under the payer's address in place of a
 * channel and the authorization's nonce (a payer's address and a channel id never look alike), and
 * written at once, before its settlement is sent: a process that dies while the transaction is on
 * its way leaves the answer the payment paid for, which {@link #find(String, BigInteger, BigInteger,
 * String)} gives back once the payment is settled.
 */
final class PaidAnswers {

    /** An answer as it is written: its status, the X-CHAN-* headers and the JSON body. */
    record Answer(Map<String, String> headers, byte[] body) {
    }

    private static final String INSERT = "INSERT INTO gateway_answer"
            + " (channel_id, nonce, amount, signature, headers, body, answered_at)"
            + " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (channel_id, nonce) DO NOTHING";

    private static final TypeReference<LinkedHashMap<String, String>> HEADERS = new TypeReference<>() {
    };

    private final JdbcTemplate jdbc;
    private final ObjectMapper json;
    private final Clock clock;
    private final Duration retention;
    private final long maxBytes;

    PaidAnswers(JdbcTemplate jdbc, ObjectMapper json, Clock clock, Duration retention, long maxBytes) {
        this.jdbc = jdbc;
        this.json = json;
        this.clock = clock;
        this.retention = retention;
        this.maxBytes = maxBytes;
    }

    /**
     * Keeps {@code answer} for {@code voucher}; called in the transaction that records the
     * request's settlement. The row is written just before that transaction commits, together with
     * the rows of the other requests settled in it (one batched statement for a group commit's
     * settlements, not one round trip each); for a settlement committed alone, by the very
     * statement that records it ({@link LoneCommit}); outside both it is written at once. A voucher
     * pays for one request, so there is never a row to replace.
     */
    void keep(SignedVoucher voucher, Answer answer) {
        if (answer.body().length > maxBytes || retention.isZero() || retention.isNegative()) {
            return;
        }
        String headers;
        try {
            headers = json.writeValueAsString(answer.headers());
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("headers of a paid answer could not be written", e);
        }
        Object[] row = {voucher.channelId(), new BigDecimal(voucher.nonce()), new BigDecimal(voucher.amount()),
                signature(voucher), headers, new String(answer.body(), StandardCharsets.UTF_8),
                Timestamp.from(clock.instant())};
        if (LoneCommit.writeBesideEvents(INSERT, row)) {
            return;
        }
        if (!TransactionSynchronizationManager.isSynchronizationActive()) {
            insert(List.<Object[]>of(row));
            return;
        }
        RowsOfTransaction rows = (RowsOfTransaction) TransactionSynchronizationManager.getResource(this);
        if (rows == null) {
            rows = new RowsOfTransaction();
            TransactionSynchronizationManager.bindResource(this, rows);
            TransactionSynchronizationManager.registerSynchronization(rows);
        }
        rows.rows.add(row);
    }

    /**
     * Keeps {@code answer} at once for the payment of {@code payer} with authorization nonce
     * {@code nonce}, {@code amount} and {@code signature}, replacing what a released earlier
     * attempt of the same payment left.
     */
    void keepNow(String payer, BigInteger nonce, BigInteger amount, String signature, Answer answer) {
        if (answer.body().length > maxBytes || retention.isZero() || retention.isNegative()) {
            return;
        }
        jdbc.update("INSERT INTO gateway_answer (channel_id, nonce, amount, signature, headers, body, answered_at)"
                        + " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (channel_id, nonce) DO UPDATE SET amount ="
                        + " EXCLUDED.amount, signature = EXCLUDED.signature, headers = EXCLUDED.headers, body ="
                        + " EXCLUDED.body, answered_at = EXCLUDED.answered_at",
                payer, new BigDecimal(nonce), new BigDecimal(amount), storedSignature(signature),
                headersText(answer.headers()), new String(answer.body(), StandardCharsets.UTF_8),
                Timestamp.from(clock.instant()));
    }

    /** The answer kept for that payment while it is retained; only for the very same amount and signature. */
    Optional<Answer> find(String payer, BigInteger nonce, BigInteger amount, String signature) {
        return findKept(payer, nonce, amount, storedSignature(signature));
    }

    /** Drops the answer kept for a payment that was not settled. */
    void forget(String payer, BigInteger nonce) {
        jdbc.update("DELETE FROM gateway_answer WHERE channel_id = ? AND nonce = ?", payer, new BigDecimal(nonce));
    }

    /** A signature as the column holds it: its hex, or the hash of a contract wallet's longer one. */
    private static String storedSignature(String signature) {
        String hex = signature.toLowerCase(Locale.ROOT);
        return hex.length() <= 132 ? hex : org.web3j.crypto.Hash.sha3String(hex);
    }

    private String headersText(Map<String, String> headers) {
        try {
            return json.writeValueAsString(headers);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("headers of a paid answer could not be written", e);
        }
    }

    private void insert(List<Object[]> rows) {
        jdbc.batchUpdate(INSERT, rows);
    }

    /**
     * The answers kept in one transaction, written by its commit (before it, on its connection); a
     * transaction rolled back drops them with it.
     */
    private final class RowsOfTransaction implements TransactionSynchronization {

        private final List<Object[]> rows = new ArrayList<>();

        @Override
        public void beforeCommit(boolean readOnly) {
            insert(rows);
        }

        @Override
        public void afterCompletion(int status) {
            TransactionSynchronizationManager.unbindResourceIfPossible(PaidAnswers.this);
        }
    }

    /** The answer {@code voucher} paid for, while it is retained; only for the very same voucher. */
    Optional<Answer> find(SignedVoucher voucher) {
        return findKept(voucher.channelId(), voucher.nonce(), voucher.amount(), signature(voucher));
    }

    private Optional<Answer> findKept(String key, BigInteger nonce, BigInteger amount, String signature) {
        Timestamp since = Timestamp.from(clock.instant().minus(retention));
        List<Answer> rows = jdbc.query("SELECT headers, body FROM gateway_answer WHERE channel_id = ? AND nonce = ?"
                        + " AND amount = ? AND signature = ? AND answered_at > ?",
                (row, n) -> new Answer(headers(row.getString(1)), row.getString(2).getBytes(StandardCharsets.UTF_8)),
                key, new BigDecimal(nonce), new BigDecimal(amount), signature, since);
        return rows.stream().findFirst();
    }

    /** Drops the answers older than the retention; answers how many. */
    int prune() {
        Instant before = clock.instant().minus(retention);
        return jdbc.update("DELETE FROM gateway_answer WHERE answered_at <= ?", Timestamp.from(before));
    }

    Duration retention() {
        return retention;
    }

    private Map<String, String> headers(String text) {
        try {
            return json.readValue(text, HEADERS);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("headers of a kept answer could not be read", e);
        }
    }

    private static String signature(SignedVoucher voucher) {
        return voucher.signatureHex().toLowerCase(Locale.ROOT);
    }
}
