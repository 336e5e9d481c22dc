package io.chanledger.domain.channel;

/** Why a voucher was refused. Each reason has a stable code clients and metrics can rely on. */
public enum VoucherRejection {
    INVALID_VOUCHER_FORMAT("invalid_voucher_format"),
    CHANNEL_NOT_FOUND("channel_not_found"),
    CHANNEL_CLOSED("channel_closed"),
    CHANNEL_EXPIRED("channel_expired"),
    INVALID_SIGNATURE("invalid_signature"),
    WRONG_SIGNER("wrong_signer"),
    EXCEEDS_DEPOSIT("exceeds_deposit"),
    AMOUNT_NOT_INCREASING("amount_not_increasing"),
    NONCE_NOT_INCREASING("nonce_not_increasing"),
    /** A metered voucher that does not cover the charged total, the running holds and its own request. */
    INSUFFICIENT_FUNDS("insufficient_funds"),
    /** A metered voucher for a channel opened to another provider than the one serving the request. */
    WRONG_PROVIDER("wrong_provider"),
    /** A metered voucher after the provider authorised the channel's close: no more requests are served. */
    CHANNEL_CLOSING("channel_closing"),
    /**
     * A metered voucher whose request would take the charged total too far above a close
     * authorization the consumer did not prove to have asked for, before the provider's claim voids it.
     */
    CLAIM_PENDING("claim_pending");

    private final String code;

    VoucherRejection(String code) {
        this.code = code;
    }

    public String code() {
        return code;
    }
}
