package io.chanledger.api.provider.x402;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** docs/api.md's table of the facilitator's reasons lists exactly the reasons of {@link X402Reason}. */
class X402ReasonsDocumentedTest {

    private static final Path API_DOC = Path.of("..", "docs", "api.md");
    private static final Pattern CODE = Pattern.compile("`([a-z0-9_]+)`");

    @Test
    void theReasonTableListsEveryReasonAndNoOther() throws Exception {
        List<String> lines = Files.readAllLines(API_DOC);
        int row = lines.indexOf("## x402 facilitator");
        assertThat(row).as("docs/api.md has a section ## x402 facilitator").isNotNegative();
        while (!lines.get(row).startsWith("| reason")) {
            row++;
        }
        Set<String> documented = new TreeSet<>();
        for (row += 2; row < lines.size() && lines.get(row).startsWith("|"); row++) {
            Matcher code = CODE.matcher(lines.get(row).split("\\|")[1]);
            while (code.find()) {
                documented.add(code.group(1));
            }
        }

        Set<String> reasons = new TreeSet<>(Arrays.stream(X402Reason.values()).map(X402Reason::code).toList());
        assertThat(documented).isEqualTo(reasons);
    }
}
