package io.chanledger.domain.provider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ProviderIdsTest {

    @Test
    void everySpellingOfAnAddressGivesTheSameId() {
        String lower = "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed";
        String checksummed = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
        assertThat(ProviderIds.forAddress(lower)).isEqualTo(ProviderIds.forAddress(checksummed))
                .startsWith("prov-").hasSize(29);
        assertThat(ProviderIds.isProviderId(ProviderIds.forAddress(lower))).isTrue();
    }

    @Test
    void differentAddressesGiveDifferentIds() {
        assertThat(ProviderIds.forAddress("0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed"))
                .isNotEqualTo(ProviderIds.forAddress("0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaee"));
    }

    @Test
    void refusesAWrongChecksum() {
        assertThatThrownBy(() -> ProviderIds.forAddress("0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void recognisesOnlyTheIdShape() {
        assertThat(ProviderIds.isProviderId("prov-0123456789abcdef01234567")).isTrue();
        assertThat(ProviderIds.isProviderId("prov-0123456789ABCDEF01234567")).isFalse();
        assertThat(ProviderIds.isProviderId("prov-0123")).isFalse();
        assertThat(ProviderIds.isProviderId(null)).isFalse();
    }
}
