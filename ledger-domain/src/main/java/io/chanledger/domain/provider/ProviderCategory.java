package io.chanledger.domain.provider;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** The provider categories of the marketplace (docs/protocol.md §1), with their wire spelling. */
public enum ProviderCategory {
    LLM("llm"),
    IMAGE("image"),
    AUDIO("audio"),
    VIDEO("video"),
    CODE("code"),
    MULTI_MODAL("multi-modal"),
    SCRAPING("scraping"),
    SEARCH("search"),
    DATA("data"),
    SCHEDULING("scheduling"),
    NETWORK("network"),
    FORECASTING("forecasting"),
    OTHER("other");

    private static final List<String> CODES = Arrays.stream(values()).map(ProviderCategory::code).toList();

    private final String code;

    ProviderCategory(String code) {
        this.code = code;
    }

    public String code() {
        return code;
    }

    /** Exact wire spelling only: "LLM" or "multi_modal" are not categories. */
    public static Optional<ProviderCategory> fromCode(String code) {
        return Arrays.stream(values()).filter(c -> c.code.equals(code)).findFirst();
    }

    /** Every wire spelling, in the order of docs/protocol.md §1. */
    public static List<String> codes() {
        return CODES;
    }
}
