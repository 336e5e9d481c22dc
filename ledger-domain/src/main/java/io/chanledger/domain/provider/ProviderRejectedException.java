package io.chanledger.domain.provider;

/** A provider command the aggregate refused; nothing was recorded. */
public class ProviderRejectedException extends RuntimeException {

    private final ProviderRejection reason;

    public ProviderRejectedException(ProviderRejection reason, String detail) {
        super(detail, null, false, false);
        this.reason = reason;
    }

    public ProviderRejection reason() {
        return reason;
    }
}
