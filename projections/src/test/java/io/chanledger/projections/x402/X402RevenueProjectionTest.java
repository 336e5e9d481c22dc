package io.chanledger.projections.x402;

import static org.assertj.core.api.Assertions.assertThat;

import io.chanledger.domain.x402.X402PaymentSettled;
import io.chanledger.projections.readmodel.ReadModelDatabase;
import java.math.BigInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/** The x402 revenue read model, fed by its handler called directly, on the service's schema. */
class X402RevenueProjectionTest {

    private static final String PROVIDER = "0x" + "12".repeat(20);
    private static final String OTHER_PROVIDER = "0x" + "34".repeat(20);
    private static final String PAYER = "0x" + "56".repeat(20);

    private X402RevenueTable table;
    private X402RevenueProjection projection;

    @BeforeEach
    void freshDatabase() {
        table = new X402RevenueTable(new JdbcTemplate(ReadModelDatabase.create()));
        projection = new X402RevenueProjection(table);
    }

    private static X402PaymentSettled paid(String provider, int nonce, long amount, String model) {
        return new X402PaymentSettled(PAYER, provider, BigInteger.valueOf(amount), "0x%064x".formatted(nonce),
                "0x%064x".formatted(1_000 + nonce), model, 10 + nonce, 1_796_000_000L + nonce);
    }

    @Test
    void revenuePerModelSumsTheProvidersPaymentsToTheBaseUnit() {
        projection.on(paid(PROVIDER, 1, 10_000, "echo-flat"));
        projection.on(paid(PROVIDER, 2, 10_001, "echo-flat"));
        projection.on(paid(PROVIDER, 3, 7, "word-count"));
        projection.on(paid(OTHER_PROVIDER, 4, 99, "echo-flat"));

        assertThat(table.perModel(PROVIDER)).containsExactly(
                new X402RevenueTable.ModelRevenue("echo-flat", 2, BigInteger.valueOf(20_001)),
                new X402RevenueTable.ModelRevenue("word-count", 1, BigInteger.valueOf(7)));
    }

    @Test
    void aPaymentHandledTwiceCountsOnce() {
        projection.on(paid(PROVIDER, 1, 10_000, "echo-flat"));
        projection.on(paid(PROVIDER, 1, 10_000, "echo-flat"));

        assertThat(table.perModel(PROVIDER)).containsExactly(
                new X402RevenueTable.ModelRevenue("echo-flat", 1, BigInteger.valueOf(10_000)));
    }

    @Test
    void aResetEmptiesItForTheEventsToRebuild() {
        projection.on(paid(PROVIDER, 1, 10_000, "echo-flat"));

        projection.reset();

        assertThat(table.perModel(PROVIDER)).isEmpty();
    }
}
