package io.chanledger.api.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.chanledger.api.support.ErrorCodes;
import io.chanledger.domain.channel.VoucherRejection;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * docs/api.md's error tables list exactly the codes the service answers: a code added in the
 * sources (or to {@code VoucherRejection}) fails here until its table names it, and a code the
 * sources no longer answer fails here until its row goes.
 */
class ErrorCodeTablesTest {

    private static final Path API_DOC = Path.of("..", "docs", "api.md");
    /** A code in a table's code column: lowercase words joined by underscores, in backticks. */
    private static final Pattern CODE = Pattern.compile("`([a-z]+(?:_[a-z0-9]+)*)`");

    @Test
    void theLedgerApisTableListsEveryProblemCode() throws Exception {
        assertThat(codesOfTableAfter("Errors under `/api`")).isEqualTo(ErrorCodes.api());
    }

    @Test
    void eachVoucherRejectionIsListedUnderItsOwnStatus() throws Exception {
        Map<String, Set<String>> byStatus = codesByFirstColumnOfTableAfter("Errors under `/api`");
        for (VoucherRejection reason : VoucherRejection.values()) {
            if (ErrorCodes.api().contains(reason.code())) {
                assertThat(byStatus.getOrDefault(Integer.toString(reason.ledgerStatus()), Set.of()))
                        .as("the row of status %d", reason.ledgerStatus()).contains(reason.code());
            }
        }
    }

    @Test
    void theGatewaysTableListsEveryXChanErrorCode() throws Exception {
        assertThat(codesOfTableAfter("Errors under `/v1`")).isEqualTo(ErrorCodes.gateway());
    }

    @Test
    void theGasStationsTableListsEveryCode() throws Exception {
        assertThat(codesOfTableAfter("## Gas station")).isEqualTo(ErrorCodes.gasStation());
    }

    @Test
    void theCodesWrittenInOtherFormsAreStillInTheSources() {
        assertThat(ErrorCodes.otherFormsMissingFromTheSources()).isEmpty();
    }

    /**
     * The codes of the first table after the line starting with {@code heading}, by the text of its
     * first column (the status, or several for the rows that name more than one).
     */
    private static Map<String, Set<String>> codesByFirstColumnOfTableAfter(String heading) throws Exception {
        List<String> lines = Files.readAllLines(API_DOC);
        int start = 0;
        while (!lines.get(start).startsWith(heading)) {
            start++;
        }
        while (!lines.get(start).startsWith("|")) {
            start++;
        }
        Map<String, Set<String>> codes = new TreeMap<>();
        // the header row and its separator name no code
        for (int row = start + 2; row < lines.size() && lines.get(row).startsWith("|"); row++) {
            String[] columns = lines.get(row).split("\\|");
            Matcher code = CODE.matcher(columns[2]);
            while (code.find()) {
                codes.computeIfAbsent(columns[1].trim(), status -> new TreeSet<>()).add(code.group(1));
            }
        }
        assertThat(codes).as("codes in the table after " + heading).isNotEmpty();
        return codes;
    }

    /** The codes in the second column of the first table after the line starting with {@code heading}. */
    private static Set<String> codesOfTableAfter(String heading) throws Exception {
        Set<String> codes = new TreeSet<>();
        codesByFirstColumnOfTableAfter(heading).values().forEach(codes::addAll);
        return codes;
    }
}
