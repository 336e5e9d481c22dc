package io.chanledger.domain.provider;

/** Why the Provider aggregate refused a command. */
public enum ProviderRejection {
    ID_NOT_DERIVED_FROM_ADDRESS("id_not_derived_from_address"),
    INVALID_REGISTRATION("invalid_registration"),
    BITTENSOR_IDENTITY_MISSING("bittensor_identity_missing"),
    NO_MODELS("no_models"),
    SCORE_OUT_OF_RANGE("score_out_of_range");

    private final String code;

    ProviderRejection(String code) {
        this.code = code;
    }

    public String code() {
        return code;
    }
}
