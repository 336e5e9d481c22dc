package io.chanledger.domain.provider;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** Bittensor miners carry a hotkey and a uid on their subnet; community providers do not. */
public enum ProviderTier {
    BITTENSOR("bittensor"),
    COMMUNITY("community");

    private static final List<String> CODES = Arrays.stream(values()).map(ProviderTier::code).toList();

    private final String code;

    ProviderTier(String code) {
        this.code = code;
    }

    public String code() {
        return code;
    }

    public static Optional<ProviderTier> fromCode(String code) {
        return Arrays.stream(values()).filter(t -> t.code.equals(code)).findFirst();
    }

    public static List<String> codes() {
        return CODES;
    }
}
