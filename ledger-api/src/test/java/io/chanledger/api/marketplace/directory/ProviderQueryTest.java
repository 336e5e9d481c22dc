package io.chanledger.api.marketplace.directory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.chanledger.api.http.ApiProblem;
import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

class ProviderQueryTest {

    @Test
    void noParametersIsTheDefaultQuery() {
        assertThat(ProviderQuery.parse(null, null, null, null, null, null, null)).isEqualTo(ProviderQuery.DEFAULT);
        assertThat(ProviderQuery.DEFAULT.limit()).isEqualTo(200);
        assertThat(ProviderQuery.DEFAULT.onlineOnly()).isTrue();
        assertThat(ProviderQuery.DEFAULT.format()).isEqualTo(ProviderQuery.Format.FULL);
        assertThat(ProviderQuery.parse(null, null, null, null, null, null, "full")).isEqualTo(ProviderQuery.DEFAULT);
    }

    @Test
    void parsesEveryFilter() {
        ProviderQuery query = ProviderQuery.parse("multi-modal", "GPT-4o", "bittensor", "0.25", "17", "false",
                "compact");

        assertThat(query).isEqualTo(new ProviderQuery("multi-modal", "gpt-4o", "bittensor", new BigDecimal("0.25"), 17,
                false, ProviderQuery.Format.COMPACT));
    }

    @Test
    void equalQueriesAreEqualWhateverTheSpelling() {
        assertThat(ProviderQuery.parse(null, "Llama", null, null, "200", "true", null)).isEqualTo(
                ProviderQuery.parse(null, "LLAMA", null, null, null, null, null));
    }

    @Test
    void theBoundsAreInclusive() {
        assertThat(ProviderQuery.parse(null, null, null, "0", "1", null, null).limit()).isEqualTo(1);
        assertThat(ProviderQuery.parse(null, null, null, "1", "200", null, null).minScore()).isEqualByComparingTo("1");
        assertThat(ProviderQuery.parse(null, null, null, ".5", null, null, null).minScore()).isEqualByComparingTo("0.5");
    }

    @Test
    void anUnknownCategoryNamesTheAllowedOnes() {
        assertThatThrownBy(() -> ProviderQuery.parse("crypto", null, null, null, null, null, null))
                .isInstanceOfSatisfying(ApiProblem.class, p -> {
                    assertThat(p.code()).isEqualTo("invalid_parameter");
                    assertThat(p.properties()).containsEntry("parameter", "category");
                    assertThat(p.getMessage()).contains("llm, image, audio").contains("'crypto'");
                });
    }

    @Test
    void numbersOutsideTheirRangeOrNotNumbersAreRefused() {
        for (String minScore : new String[]{"1.01", "-0", "NaN", "0x1", "1e0", " 0.5", ""}) {
            assertThatThrownBy(() -> ProviderQuery.parse(null, null, null, minScore, null, null, null))
                    .as(minScore).isInstanceOf(ApiProblem.class).hasMessageStartingWith("minScore:");
        }
        for (String limit : new String[]{"0", "201", "99999999999", "1.0", "+5", ""}) {
            assertThatThrownBy(() -> ProviderQuery.parse(null, null, null, null, limit, null, null))
                    .as(limit).isInstanceOf(ApiProblem.class).hasMessageStartingWith("limit:");
        }
    }

    @Test
    void aFormatOtherThanFullOrCompactIsRefused() {
        for (String format : new String[]{"COMPACT", "short", ""}) {
            assertThatThrownBy(() -> ProviderQuery.parse(null, null, null, null, null, null, format))
                    .as(format).isInstanceOfSatisfying(ApiProblem.class, p -> {
                        assertThat(p.properties()).containsEntry("parameter", "format");
                        assertThat(p.getMessage()).startsWith("format:");
                    });
        }
    }

    @Test
    void theFilterDescriptionListsEveryParameterInOrder() {
        assertThat(ProviderQuery.DESCRIPTION.keySet())
                .containsExactly("category", "model", "tier", "minScore", "limit", "online", "format");
        assertThat(ProviderQuery.DESCRIPTION.get("format").toString()).contains("compact").contains("default=full");
    }
}
