package io.chanledger.api.marketplace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.chanledger.api.web.ApiProblem;
import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

class ProviderQueryTest {

    @Test
    void noParametersIsTheDefaultQuery() {
        assertThat(ProviderQuery.parse(null, null, null, null, null, null)).isEqualTo(ProviderQuery.DEFAULT);
        assertThat(ProviderQuery.DEFAULT.limit()).isEqualTo(200);
        assertThat(ProviderQuery.DEFAULT.onlineOnly()).isTrue();
    }

    @Test
    void parsesEveryFilter() {
        ProviderQuery query = ProviderQuery.parse("multi-modal", "GPT-4o", "bittensor", "0.25", "17", "false");

        assertThat(query).isEqualTo(new ProviderQuery("multi-modal", "gpt-4o", "bittensor", new BigDecimal("0.25"), 17,
                false));
    }

    @Test
    void equalQueriesAreEqualWhateverTheSpelling() {
        assertThat(ProviderQuery.parse(null, "Llama", null, null, "200", "true")).isEqualTo(
                ProviderQuery.parse(null, "LLAMA", null, null, null, null));
    }

    @Test
    void theBoundsAreInclusive() {
        assertThat(ProviderQuery.parse(null, null, null, "0", "1", null).limit()).isEqualTo(1);
        assertThat(ProviderQuery.parse(null, null, null, "1", "200", null).minScore()).isEqualByComparingTo("1");
        assertThat(ProviderQuery.parse(null, null, null, ".5", null, null).minScore()).isEqualByComparingTo("0.5");
    }

    @Test
    void anUnknownCategoryNamesTheAllowedOnes() {
        assertThatThrownBy(() -> ProviderQuery.parse("crypto", null, null, null, null, null))
                .isInstanceOfSatisfying(ApiProblem.class, p -> {
                    assertThat(p.code()).isEqualTo("invalid_parameter");
                    assertThat(p.properties()).containsEntry("parameter", "category");
                    assertThat(p.getMessage()).contains("llm, image, audio").contains("'crypto'");
                });
    }

    @Test
    void numbersOutsideTheirRangeOrNotNumbersAreRefused() {
        for (String minScore : new String[]{"1.01", "-0", "NaN", "0x1", "1e0", " 0.5", ""}) {
            assertThatThrownBy(() -> ProviderQuery.parse(null, null, null, minScore, null, null))
                    .as(minScore).isInstanceOf(ApiProblem.class).hasMessageStartingWith("minScore:");
        }
        for (String limit : new String[]{"0", "201", "99999999999", "1.0", "+5", ""}) {
            assertThatThrownBy(() -> ProviderQuery.parse(null, null, null, null, limit, null))
                    .as(limit).isInstanceOf(ApiProblem.class).hasMessageStartingWith("limit:");
        }
    }

    @Test
    void theFilterDescriptionListsEveryParameterInOrder() {
        assertThat(ProviderQuery.DESCRIPTION.keySet())
                .containsExactly("category", "model", "tier", "minScore", "limit", "online");
    }
}
