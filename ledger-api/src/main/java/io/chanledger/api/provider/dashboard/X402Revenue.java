package io.chanledger.api.provider.dashboard;

import java.math.BigInteger;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * What x402 payments settled to this provider, per model: the provider's facilitator records
 * each payment (table {@code x402_payment}) and marks it settled once the receipt shows its
 * transfer, so these are the payments the chain holds.
 */
final class X402Revenue {

    /** One model's settled x402 payments: their sum in base units, and how many. */
    record Settled(BigInteger amount, long payments) {
    }

    private final JdbcTemplate jdbc;

    X402Revenue(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** The settled payments to {@code provider} per model, most first. */
    Map<String, Settled> perModel(String provider) {
        Map<String, Settled> models = new LinkedHashMap<>();
        jdbc.query("SELECT COALESCE(model, ''), SUM(amount), COUNT(*) FROM x402_payment WHERE status = 'SETTLED'"
                        + " AND LOWER(pay_to) = ? GROUP BY COALESCE(model, '') ORDER BY SUM(amount) DESC, 1",
                row -> {
                    models.put(row.getString(1), new Settled(row.getBigDecimal(2).toBigIntegerExact(), row.getLong(3)));
                }, provider.toLowerCase(Locale.ROOT));
        return models;
    }
}
