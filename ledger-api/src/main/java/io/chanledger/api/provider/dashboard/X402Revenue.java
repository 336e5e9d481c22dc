package io.chanledger.api.provider.dashboard;

import io.chanledger.projections.x402.X402RevenueTable;
import java.math.BigInteger;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * What x402 payments settled to this provider, per model: the read model of the ledger's
 * {@code X402PaymentSettled} events (each appended once its receipt showed the transfer), so these
 * are the payments the chain holds, and a replay rebuilds them.
 */
final class X402Revenue {

    /** One model's settled x402 payments: their sum in base units, and how many. */
    record Settled(BigInteger amount, long payments) {
    }

    private final X402RevenueTable table;

    X402Revenue(JdbcTemplate jdbc) {
        this.table = new X402RevenueTable(jdbc);
    }

    /** The settled payments to {@code provider} per model, by model id. */
    Map<String, Settled> perModel(String provider) {
        Map<String, Settled> models = new LinkedHashMap<>();
        table.perModel(provider).forEach(m -> models.put(m.model(), new Settled(m.amount(), m.payments())));
        return models;
    }
}
