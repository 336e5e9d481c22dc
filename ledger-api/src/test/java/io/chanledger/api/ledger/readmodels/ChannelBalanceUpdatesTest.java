package io.chanledger.api.ledger.readmodels;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.chanledger.api.config.RoleMigrations;
import io.chanledger.api.support.TestDatabases;
import io.chanledger.projections.channel.ChannelBalance;
import io.chanledger.projections.channel.ChannelBalanceRepository;
import io.chanledger.projections.readmodel.MultiRow;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

/**
 * The channel read model's multi-row update on PostgreSQL, as its processor sends it: batches of
 * any size update exactly their rows, and every size up to the same power of two is one statement
 * to the database, which it prepares once and runs again, instead of parsing and planning a
 * statement it has not seen at every batch.
 */
class ChannelBalanceUpdatesTest {

    private static final int CHANNELS = 300;
    /** Batch sizes that all pad to 256 rows. */
    private static final List<Integer> BATCHES = List.of(129, 130, 150, 171, 200, 201, 230, 255, 256, 140);
    /** The driver's default: the statement is prepared on the server from its fifth execution on. */
    private static final int PREPARE_THRESHOLD = 5;

    @Test
    void batchesOfAnySizeUpdateExactlyTheirRowsThroughOneStatementTheDatabasePreparesOnce() {
        SingleConnectionDataSource connection = TestDatabases.migratedConnection("chan_balance_updates",
                RoleMigrations.CORE, RoleMigrations.CHAIN, RoleMigrations.CHANNELS);
        try {
            JdbcTemplate jdbc = new JdbcTemplate(connection);
            jdbc.update("INSERT INTO channel_balance (channel_id, consumer, provider, deposit, expiry, status, provisional,"
                    + " highest_amount, voucher_count, claimed, claimable, fees_paid, last_activity, last_sequence)"
                    + " SELECT '0x' || lpad(to_hex(g), 64, '0'), '0x' || repeat('1', 40), '0x' || repeat('2', 40),"
                    + " 1000000, 1800000000, 'open', false, 0, 0, 0, 0, 0, now(), 0 FROM generate_series(1, ?) g", CHANNELS);
            List<String> ids = jdbc.queryForList("SELECT channel_id FROM channel_balance", String.class);
            ChannelBalanceRepository repository = new ChannelBalanceRepository(connection);
            Map<String, Long> updates = new HashMap<>();
            Random random = new Random(7);

            for (int size : BATCHES) {
                List<String> batch = new ArrayList<>(ids);
                Collections.shuffle(batch, random);
                batch = batch.subList(0, size);
                List<ChannelBalance> changed = repository.findAll(batch).values().stream()
                        .map(row -> new ChannelBalance(row.state(), row.lastActivity(), row.lastSequence() + 1))
                        .toList();
                repository.updateAll(changed);
                batch.forEach(id -> updates.merge(id, 1L, Long::sum));
            }

            Map<String, Long> sequences = new HashMap<>();
            jdbc.query("SELECT channel_id, last_sequence FROM channel_balance",
                    (row) -> { sequences.put(row.getString(1), row.getLong(2)); });
            assertThat(sequences).hasSize(CHANNELS);
            ids.forEach(id -> assertThat(sequences.get(id)).as(id).isEqualTo(updates.getOrDefault(id, 0L)));

            // one MERGE prepared on the server, run by every batch from the threshold on: with a
            // statement per size there would be none (no size comes five times), and a parameter
            // whose type changed between batches would have made the driver prepare another
            assertThat(TestDatabases.preparedStatementRuns(jdbc, "MERGE INTO channel_balance%"))
                    .containsExactly((long) BATCHES.size() - PREPARE_THRESHOLD + 1);
        } finally {
            connection.destroy();
        }
    }

    @Test
    void aStatementCarriesTheNextPowerOfTwoRowsUpToTheBound() {
        assertThat(MultiRow.statementRows(1)).isEqualTo(1);
        assertThat(MultiRow.statementRows(3)).isEqualTo(4);
        assertThat(MultiRow.statementRows(129)).isEqualTo(256);
        assertThat(MultiRow.statementRows(256)).isEqualTo(256);
        assertThat(MultiRow.statementRows(MultiRow.ROWS_PER_STATEMENT)).isEqualTo(MultiRow.ROWS_PER_STATEMENT);
        assertThatThrownBy(() -> MultiRow.statementRows(MultiRow.ROWS_PER_STATEMENT + 1))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> MultiRow.statementRows(0)).isInstanceOf(IllegalArgumentException.class);
    }
}
