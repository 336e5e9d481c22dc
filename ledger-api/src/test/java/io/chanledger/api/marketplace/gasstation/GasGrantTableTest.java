package io.chanledger.api.marketplace.gasstation;

import static org.assertj.core.api.Assertions.assertThat;

import io.chanledger.api.support.TestDatabases;
import io.chanledger.projections.gasgrant.GasGrantRow;
import io.chanledger.projections.gasgrant.GasGrantTable;
import java.math.BigInteger;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/** The gas_grant table on an in-memory database (H2 in PostgreSQL mode, no server), migrated by Flyway like the application's. */
class GasGrantTableTest {

    private static final String WALLET = "0x5315f457a01c71a5d7ee87da126af57e8cdeda47";
    private static final String FAUCET = "0xa0ee7a142d267c1f36714e4a8f75612f20a79720";
    private static final String TX = "0x" + "ab".repeat(32);
    private static final Instant T0 = Instant.parse("2026-11-21T10:00:00Z");

    private GasGrantTable table;

    @BeforeEach
    void embeddedStore() {
        table = new GasGrantTable(new JdbcTemplate(TestDatabases.migratedInMemory()));
    }

    @Test
    void anAttemptIsFollowedFromReservationToGrant() {
        table.reserved(WALLET, "a1", BigInteger.TEN.pow(17), T0, T0);
        table.sendStarted(WALLET, "a1", FAUCET, 7, 100, T0.plusSeconds(1));
        table.broadcast(WALLET, "a1", TX, 7L, T0.plusSeconds(2));

        assertThat(table.pending(10)).singleElement().satisfies(row -> {
            assertThat(row.status()).isEqualTo(GasGrantRow.Status.BROADCAST);
            assertThat(row.faucet()).isEqualTo(FAUCET);
            assertThat(row.faucetNonce()).isEqualTo(7L);
            assertThat(row.fromBlock()).isEqualTo(100L);
            assertThat(row.txNonce()).isEqualTo(7L);
            assertThat(row.reservedAt()).isEqualTo(T0);
            assertThat(row.amount()).isEqualTo(BigInteger.TEN.pow(17));
        });

        table.granted(WALLET, "a1", TX, 101, T0.plusSeconds(3));

        assertThat(table.pending(10)).isEmpty();
        assertThat(table.find(WALLET)).hasValueSatisfying(row -> {
            assertThat(row.status()).isEqualTo(GasGrantRow.Status.GRANTED);
            assertThat(row.blockNumber()).isEqualTo(101L);
            assertThat(row.updatedAt()).isEqualTo(T0.plusSeconds(3));
        });
    }

    @Test
    void aNewAttemptAfterAFailureStartsFromAClearRow() {
        table.reserved(WALLET, "a1", BigInteger.ONE, T0, T0);
        table.sendStarted(WALLET, "a1", FAUCET, 7, 100, T0);
        table.failed(WALLET, "a1", "not_sent", null, T0.plusSeconds(1));
        Instant later = T0.plus(1, ChronoUnit.HOURS);

        table.reserved(WALLET, "a2", BigInteger.ONE, later, later);

        assertThat(table.find(WALLET)).hasValueSatisfying(row -> {
            assertThat(row.status()).isEqualTo(GasGrantRow.Status.RESERVED);
            assertThat(row.attemptId()).isEqualTo("a2");
            assertThat(row.attempts()).isEqualTo(2);
            assertThat(row.faucetNonce()).isNull();
            assertThat(row.failure()).isNull();
            assertThat(row.reservedAt()).isEqualTo(later);
        });
    }

    @Test
    void aStaleAttemptsUpdatesDoNotTouchTheCurrentOne() {
        table.reserved(WALLET, "a2", BigInteger.ONE, T0, T0);

        table.granted(WALLET, "a1", TX, 101, T0);

        assertThat(table.find(WALLET).orElseThrow().status()).isEqualTo(GasGrantRow.Status.RESERVED);
    }
}
