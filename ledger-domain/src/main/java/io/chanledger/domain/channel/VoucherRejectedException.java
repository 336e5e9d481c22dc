package io.chanledger.domain.channel;

/** A voucher the ledger will not accept; nothing was recorded. */
public class VoucherRejectedException extends RuntimeException {

    private final VoucherRejection reason;

    public VoucherRejectedException(VoucherRejection reason, String detail) {
        super(detail, null, false, false);
        this.reason = reason;
    }

    public VoucherRejection reason() {
        return reason;
    }
}
