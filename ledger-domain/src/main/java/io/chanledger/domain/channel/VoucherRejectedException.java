package io.chanledger.domain.channel;

import java.math.BigInteger;

/**
 * A voucher the ledger will not accept; nothing was recorded. {@code required} is set for
 * {@link VoucherRejection#INSUFFICIENT_FUNDS}: the smallest amount a voucher must carry. A metered
 * voucher refused so also carries the request's {@code hold} and what the channel had been
 * {@code charged}, so that the provider gateway can say what the request needed and what the
 * voucher left for it.
 */
public class VoucherRejectedException extends RuntimeException {

    private final VoucherRejection reason;
    private final BigInteger required;
    private final BigInteger hold;
    private final BigInteger charged;

    public VoucherRejectedException(VoucherRejection reason, String detail) {
        this(reason, detail, null);
    }

    public VoucherRejectedException(VoucherRejection reason, String detail, BigInteger required) {
        this(reason, detail, required, null, null);
    }

    public VoucherRejectedException(VoucherRejection reason, String detail, BigInteger required, BigInteger hold,
                                    BigInteger charged) {
        super(detail, null, false, false);
        this.reason = reason;
        this.required = required;
        this.hold = hold;
        this.charged = charged;
    }

    public VoucherRejection reason() {
        return reason;
    }

    public BigInteger required() {
        return required;
    }

    /** The refused request's hold; null unless a metered voucher was refused for lack of funds. */
    public BigInteger hold() {
        return hold;
    }

    /** What the channel had been charged when the metered voucher was refused; null otherwise. */
    public BigInteger charged() {
        return charged;
    }
}
