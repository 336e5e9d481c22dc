package io.chanledger.projections.x402;

import io.chanledger.domain.x402.X402PaymentSettled;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Locale;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The table {@code x402_revenue}: one row per settled x402 payment, and a provider's x402 revenue
 * per model read from it. Amounts are base units.
 */
public class X402RevenueTable {

    /** The longest model id kept, as the table's column; a longer one is cut, not refused. */
    static final int MODEL_LENGTH = 200;

    /** What one model or service earned through x402: how many payments and their sum. */
    public record ModelRevenue(String model, long payments, BigInteger amount) {
    }

    private final JdbcTemplate jdbc;

    public X402RevenueTable(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** Keeps the payment of {@code event}; a payment kept already stays as it is. */
    public void settled(X402PaymentSettled event) {
        String model = event.model() == null ? "" : event.model();
        String payer = event.payer().toLowerCase(Locale.ROOT);
        String nonce = event.nonce().toLowerCase(Locale.ROOT);
        // one processor thread writes this table, so no second writer races the check
        jdbc.update("INSERT INTO x402_revenue (payer, nonce, provider, model, amount, tx_hash, block_number, settled_at)"
                        + " SELECT ?, ?, ?, ?, ?, ?, ?, ? WHERE NOT EXISTS"
                        + " (SELECT 1 FROM x402_revenue WHERE payer = ? AND nonce = ?)",
                payer, nonce, event.provider().toLowerCase(Locale.ROOT),
                model.length() > MODEL_LENGTH ? model.substring(0, MODEL_LENGTH) : model,
                new BigDecimal(event.amount()), event.transaction(), event.blockNumber(), event.settledAt(), payer, nonce);
    }

    /** The x402 payments settled to {@code provider} per model, by model id. */
    public List<ModelRevenue> perModel(String provider) {
        return jdbc.query("SELECT model, COUNT(*) AS payments, SUM(amount) AS amount FROM x402_revenue"
                        + " WHERE provider = ? GROUP BY model ORDER BY model",
                (rs, i) -> new ModelRevenue(rs.getString("model"), rs.getLong("payments"),
                        rs.getBigDecimal("amount").toBigIntegerExact()), provider.toLowerCase(Locale.ROOT));
    }

    /** Empties the table, for the events to rebuild it. */
    public void deleteAll() {
        jdbc.update("DELETE FROM x402_revenue");
    }
}
