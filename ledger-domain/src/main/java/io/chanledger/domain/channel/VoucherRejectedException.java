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
    private final BigInteger provided;

    public VoucherRejectedException(VoucherRejection reason, String detail) {
        this(reason, detail, null);
    }

    public VoucherRejectedException(VoucherRejection reason, String detail, BigInteger required) {
        this(reason, detail, required, null, null);
    }

    public VoucherRejectedException(VoucherRejection reason, String detail, BigInteger required, BigInteger hold,
                                    BigInteger charged) {
        this(reason, detail, required, hold, charged, null);
    }

    public VoucherRejectedException(VoucherRejection reason, String detail, BigInteger required, BigInteger hold,
                                    BigInteger charged, BigInteger provided) {
        super(detail, null, false, false);
        this.reason = reason;
        this.required = required;
        this.hold = hold;
        this.charged = charged;
        this.provided = provided;
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

    /**
     * What the refused metered voucher offered beyond what the channel had been charged (its
     * amount less {@link #charged()}); null otherwise. The rejection carries it, so that whoever
     * answers the refusal needs nothing of the request.
     */
    public BigInteger provided() {
        return provided;
    }
}
