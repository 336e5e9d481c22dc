package io.chanledger.api.ledger.readmodels;

import static org.assertj.core.api.Assertions.assertThat;

import io.chanledger.api.config.RoleMigrations;
import io.chanledger.api.support.TestDatabases;
import io.chanledger.projections.rebuild.EventTable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

/**
 * The last sequence numbers the channel cache guard asks the store for before each group commit,
 * on PostgreSQL: right for any number of channels, those without events included, and one
 * statement to the database for every batch size up to the same power of two.
 */
class EventTableLastSequencesTest {

    /** The driver's default: the statement is prepared on the server from its fifth execution on. */
    private static final int PREPARE_THRESHOLD = 5;

    @Test
    void everyChannelsLastSequenceForAnyNumberOfChannelsThroughStatementsTheDatabasePreparesOnce() {
        SingleConnectionDataSource connection = TestDatabases.migratedConnection("chan_last_sequences",
                RoleMigrations.CORE);
        try {
            JdbcTemplate jdbc = new JdbcTemplate(connection);
            // channel n has events 0 … n % 7 (none when n % 7 is 6, as a channel unknown to the store)
            jdbc.update("INSERT INTO domain_event_entry (event_identifier, aggregate_identifier, sequence_number, type,"
                    + " time_stamp, payload_type, payload, meta_data) SELECT 'e-' || n || '-' || s, 'ch-' || n, s,"
                    + " 'ChannelAggregate', '2026-11-28T00:00:00Z', 'probe', '{}', '{}'"
                    + " FROM generate_series(1, 600) n, generate_series(0, 5) s WHERE s <= n % 7 AND n % 7 < 6");
            EventTable events = new EventTable(connection);

            List<String> all = new ArrayList<>();
            for (int n = 1; n <= 600; n++) {
                all.add("ch-" + n);
            }
            Map<String, Long> latest = events.lastSequences(all);
            assertThat(latest).hasSize(600);
            for (int n = 1; n <= 600; n++) {
                assertThat(latest.get("ch-" + n)).as("ch-" + n).isEqualTo(n % 7 == 6 ? null : (long) (n % 7));
            }

            List<Integer> batches = List.of(5, 6, 7, 8, 5, 6, 7, 8, 6, 5);
            for (int size : batches) {
                Map<String, Long> batch = events.lastSequences(all.subList(100, 100 + size));
                assertThat(batch).hasSize(size);
                batch.forEach((id, sequence) -> assertThat(sequence).as(id).isEqualTo(latest.get(id)));
            }
            // the statement for eight channels: its last parameter is $8
            assertThat(TestDatabases.preparedStatementRuns(jdbc, "SELECT ids.id%($8)) AS ids(id)"))
                    .containsExactly((long) batches.size() - PREPARE_THRESHOLD + 1);
        } finally {
            connection.destroy();
        }
    }
}
