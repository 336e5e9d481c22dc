package io.chanledger.domain.provider;

/** Whether the marketplace lists a provider: only approved ones are shown to agents and polled. */
public enum ApprovalState {
    PENDING("pending"),
    APPROVED("approved"),
    SUSPENDED("suspended");

    private final String code;

    ApprovalState(String code) {
        this.code = code;
    }

    public String code() {
        return code;
    }
}
