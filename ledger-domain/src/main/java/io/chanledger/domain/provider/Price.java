package io.chanledger.domain.provider;

import com.fasterxml.jackson.annotation.JsonInclude;
import org.jspecify.annotations.Nullable;

/**
 * A model's whole price as every reader receives it (a provider's {@code /v1/pricing} and
 * {@code /v1/models}, a marketplace's listings): its {@code kind} and the amounts of that kind, in
 * USDC base units as decimal strings of integers. Per token: {@code inputPer1kTokens} and
 * {@code outputPer1kTokens}; flat: {@code perRequest}; per unit: {@code perUnit}, the {@code unit}
 * (the request's parameter that counts them), {@code minUnits} and {@code maxUnits}.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Price(PriceKind kind, @Nullable String inputPer1kTokens, @Nullable String outputPer1kTokens,
                    @Nullable String perRequest, @Nullable String perUnit, @Nullable String unit,
                    @Nullable Long minUnits, @Nullable Long maxUnits) {

    static Price of(ModelPrice model) {
        return switch (model.kind()) {
            case TOKENS -> new Price(PriceKind.TOKENS, model.inputPer1kTokens().toString(),
                    model.outputPer1kTokens().toString(), null, null, null, null, null);
            case FLAT -> new Price(PriceKind.FLAT, null, null, model.inputPer1kTokens().toString(), null, null, null,
                    null);
            case PER_UNIT -> {
                UnitPrice units = model.unitPrice();
                yield new Price(PriceKind.PER_UNIT, null, null, null, units.perUnit().toString(), units.unit(),
                        units.minUnits(), units.maxUnits());
            }
        };
    }
}
