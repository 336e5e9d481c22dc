package io.chanledger.api.marketplace.directory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chanledger.domain.provider.ModelPrice;
import io.chanledger.domain.provider.PriceKind;
import io.chanledger.domain.provider.UnitPrice;
import java.math.BigInteger;
import org.junit.jupiter.api.Test;

class PricingDocumentTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ADDRESS = "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed";

    private static JsonNode json(String text) throws Exception {
        return JSON.readTree(text);
    }

    @Test
    void readsThePricingOfTheProtocolInBaseUnitsOrderedById() throws Exception {
        JsonNode body = json("""
                {"provider": "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", "providerName": "acme", "chainId": 137,
                 "currency": "USDC", "decimals": 6,
                 "models": {"z-large": {"inputPer1kTokens": "0.00375", "outputPer1kTokens": "0.015"},
                            "a-flat": {"inputPer1kTokens": 0.01, "outputPer1kTokens": "0", "name": "Flat rate"}}}""");

        assertThat(PricingDocument.parse(body, ADDRESS, 137)).containsExactly(
                new ModelPrice("a-flat", "Flat rate", BigInteger.valueOf(10_000), BigInteger.ZERO),
                new ModelPrice("z-large", "z-large", BigInteger.valueOf(3_750), BigInteger.valueOf(15_000)));
    }

    @Test
    void refusesAnotherProviderAddress() throws Exception {
        JsonNode body = json("{\"provider\": \"0x0000000000000000000000000000000000000001\", \"models\": "
                + "{\"m\": {\"inputPer1kTokens\": \"1\", \"outputPer1kTokens\": \"1\"}}}");

        assertThatThrownBy(() -> PricingDocument.parse(body, ADDRESS, 137)).isInstanceOf(ProbeFailure.class)
                .hasMessageContaining("not the registered 0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed");
    }

    @Test
    void refusesPricesThatAreNotUsdcAmounts() throws Exception {
        for (String price : new String[]{"\"-1\"", "\"0.0000001\"", "\"free\"", "null", "1e-9", "1e400"}) {
            JsonNode body = json("{\"provider\": \"" + ADDRESS + "\", \"models\": "
                    + "{\"m\": {\"inputPer1kTokens\": " + price + ", \"outputPer1kTokens\": \"1\"}}}");
            assertThatThrownBy(() -> PricingDocument.parse(body, ADDRESS, 137)).as(price)
                    .isInstanceOf(ProbeFailure.class).hasMessageContaining("model m");
        }
    }

    @Test
    void refusesOtherChainsCurrenciesAndDecimals() throws Exception {
        String models = "\"models\": {\"m\": {\"inputPer1kTokens\": \"1\", \"outputPer1kTokens\": \"1\"}}";
        assertThatThrownBy(() -> PricingDocument.parse(json("{\"provider\": \"" + ADDRESS + "\", \"chainId\": 1, "
                + models + "}"), ADDRESS, 137)).hasMessageContaining("chain 1");
        assertThatThrownBy(() -> PricingDocument.parse(json("{\"provider\": \"" + ADDRESS + "\", \"currency\": \"DAI\", "
                + models + "}"), ADDRESS, 137)).hasMessageContaining("DAI");
        assertThatThrownBy(() -> PricingDocument.parse(json("{\"provider\": \"" + ADDRESS + "\", \"decimals\": 18, "
                + models + "}"), ADDRESS, 137)).hasMessageContaining("decimals 18");
    }

    @Test
    void refusesAnEmptyOrMissingModelList() throws Exception {
        assertThatThrownBy(() -> PricingDocument.parse(json("{\"provider\": \"" + ADDRESS + "\", \"models\": {}}"),
                ADDRESS, 137)).hasMessage("/v1/pricing lists no models");
        assertThatThrownBy(() -> PricingDocument.parse(json("{\"provider\": \"" + ADDRESS + "\"}"), ADDRESS, 137))
                .hasMessage("/v1/pricing lists no models");
        assertThatThrownBy(() -> PricingDocument.parse(json("[]"), ADDRESS, 137))
                .hasMessage("/v1/pricing did not answer with a JSON object");
    }

    @Test
    void readsAPricePerUnitWholeWithItsUnitAndBounds() throws Exception {
        JsonNode body = json("""
                {"provider": "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed",
                 "models": {"relay-lease": {"inputPer1kTokens": "0.024", "outputPer1kTokens": "0",
                   "price": {"kind": "per-unit", "perUnit": "100", "unit": "minutes", "minUnits": 5, "maxUnits": 240}}}}""");

        ModelPrice lease = PricingDocument.parse(body, ADDRESS, 137).getFirst();

        assertThat(lease.kind()).isEqualTo(PriceKind.PER_UNIT);
        assertThat(lease.unitPrice()).isEqualTo(new UnitPrice("minutes", BigInteger.valueOf(100), 5, 240));
        assertThat(lease.perRequest()).as("not one price per request").isNull();
    }

    @Test
    void refusesAWholePriceThatIsMalformedOrDisagreesWithTheTwoNumbers() throws Exception {
        String[] prices = {
            // the highest price of a request is 240 x 100 = 24000 base units, not 0.02 USDC
            "\"0.02\", \"outputPer1kTokens\": \"0\", \"price\": {\"kind\": \"per-unit\", \"perUnit\": \"100\", "
                    + "\"unit\": \"minutes\", \"minUnits\": 5, \"maxUnits\": 240}",
            "\"0.024\", \"outputPer1kTokens\": \"0\", \"price\": {\"kind\": \"per-unit\", \"perUnit\": \"0.0001\", "
                    + "\"unit\": \"minutes\", \"minUnits\": 5, \"maxUnits\": 240}",
            "\"0.024\", \"outputPer1kTokens\": \"0\", \"price\": {\"kind\": \"per-unit\", \"perUnit\": \"100\", "
                    + "\"minUnits\": 5, \"maxUnits\": 240}",
            "\"0.002\", \"outputPer1kTokens\": \"0\", \"price\": {\"kind\": \"flat\", \"perRequest\": \"3000\"}",
            "\"0.002\", \"outputPer1kTokens\": \"0\", \"price\": {\"kind\": \"by-the-hour\"}",
            "\"0.002\", \"outputPer1kTokens\": \"0\", \"price\": \"flat\""};
        for (String price : prices) {
            JsonNode body = json("{\"provider\": \"" + ADDRESS + "\", \"models\": {\"m\": {\"inputPer1kTokens\": "
                    + price + "}}}");
            assertThatThrownBy(() -> PricingDocument.parse(body, ADDRESS, 137)).as(price)
                    .isInstanceOf(ProbeFailure.class).hasMessageContaining("model m");
        }
    }
}
