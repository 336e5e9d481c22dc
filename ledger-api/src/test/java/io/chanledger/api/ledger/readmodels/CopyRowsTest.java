package io.chanledger.api.ledger.readmodels;

import static org.assertj.core.api.Assertions.assertThat;

import io.chanledger.api.support.LedgerIntegrationTest;
import io.chanledger.projections.readmodel.CopyRows;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

class CopyRowsTest extends LedgerIntegrationTest {

    @Autowired
    DataSource dataSource;

    @Test
    void textReadsBackAsItWasWrittenWhateverItHoldsToEscape() {
        JdbcTemplate jdbc = new JdbcTemplate(dataSource);
        jdbc.execute("DROP TABLE IF EXISTS copy_rows_probe");
        jdbc.execute("CREATE TABLE copy_rows_probe (id INT PRIMARY KEY, value VARCHAR(200))");
        try {
            List<String> values = Arrays.asList("0x" + "ab".repeat(32), "tab\there", "line\nbreak", "carriage\rreturn",
                    "back\\slash", "\\N", "\\", "", "mixed\t\\\n\r end", "ünïcødé €", null);
            List<Integer> ids = new ArrayList<>();
            for (int i = 0; i < values.size(); i++) {
                ids.add(i);
            }

            boolean copied = CopyRows.copy(jdbc, "copy_rows_probe", List.of("id", "value"), ids,
                    (id, line) -> line.number(id).text(values.get(id)));

            assertThat(copied).isTrue();
            List<String> read = jdbc.query("SELECT value FROM copy_rows_probe ORDER BY id",
                    (rows, n) -> rows.getString(1));
            assertThat(read).containsExactlyElementsOf(values);
        } finally {
            jdbc.execute("DROP TABLE copy_rows_probe");
        }
    }
}
