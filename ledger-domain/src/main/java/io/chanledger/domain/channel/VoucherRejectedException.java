package io.chanledger.domain.channel;

import java.math.BigInteger;

/**
 * A voucher the ledger will not accept; nothing was recorded. {@code required} is set for
 * {@link VoucherRejection#INSUFFICIENT_FUNDS}: the smallest amount a voucher must carry.
 */
public class VoucherRejectedException extends RuntimeException {

    private final VoucherRejection reason;
    private final BigInteger required;

    public VoucherRejectedException(VoucherRejection reason, String detail) {
        this(reason, detail, null);
    }

    public VoucherRejectedException(VoucherRejection reason, String detail, BigInteger required) {
        super(detail, null, false, false);
        this.reason = reason;
        this.required = required;
    }

    public VoucherRejection reason() {
        return reason;
    }

    public BigInteger required() {
        return required;
    }
}
