package io.chanledger.domain.channel;

/**
 * Why a voucher was refused. Each reason carries every name it is published under, so a new reason
 * is one line here plus where the aggregate decides it:
 * <ul>
 *   <li>{@link #code()}: the stable code of the ledger API's problem answers and of the metrics;</li>
 *   <li>{@link #ledgerStatus()}: the HTTP status the ledger API answers it with (docs/api.md);</li>
 *   <li>{@link #providerCode()}: the provider interface's {@code X-CHAN-Error} code (docs/protocol.md
 *   §C.3). The deployed agents know fewer codes than the ledger has reasons, so several reasons share
 *   one: a closed, expired or closing channel is {@code channel_not_found}, since the channel can pay
 *   for nothing more and what a client does about it is the same, open a new one (the message says
 *   which it was); a voucher below the highest accepted one is {@code insufficient_funds}, since it
 *   does not cover what the channel already owes.</li>
 * </ul>
 * The statuses are plain numbers so that the domain stays free of any web library.
 */
public enum VoucherRejection {
    INVALID_VOUCHER_FORMAT("invalid_voucher_format", 400, "invalid_voucher_format"),
    CHANNEL_NOT_FOUND("channel_not_found", 404, "channel_not_found"),
    CHANNEL_CLOSED("channel_closed", 410, "channel_not_found"),
    CHANNEL_EXPIRED("channel_expired", 410, "channel_not_found"),
    INVALID_SIGNATURE("invalid_signature", 422, "invalid_signature"),
    WRONG_SIGNER("wrong_signer", 422, "invalid_signature"),
    EXCEEDS_DEPOSIT("exceeds_deposit", 422, "exceeds_deposit"),
    AMOUNT_NOT_INCREASING("amount_not_increasing", 409, "insufficient_funds"),
    NONCE_NOT_INCREASING("nonce_not_increasing", 409, "invalid_nonce"),
    /** A metered voucher that does not cover the charged total, the running holds and its own request. */
    INSUFFICIENT_FUNDS("insufficient_funds", 402, "insufficient_funds"),
    /** A metered voucher for a channel opened to another provider than the one serving the request. */
    WRONG_PROVIDER("wrong_provider", 422, "wrong_provider"),
    /** A metered voucher after the provider authorised the channel's close: no more requests are served. */
    CHANNEL_CLOSING("channel_closing", 410, "channel_not_found"),
    /**
     * A metered voucher while a close authorization the consumer did not prove to have asked for
     * is outstanding and one request was charged above it (until the provider's claim voids it),
     * or another request is running (one at a time may pass it).
     */
    CLAIM_PENDING("claim_pending", 409, "claim_pending");

    private final String code;
    private final int ledgerStatus;
    private final String providerCode;

    VoucherRejection(String code, int ledgerStatus, String providerCode) {
        this.code = code;
        this.ledgerStatus = ledgerStatus;
        this.providerCode = providerCode;
    }

    public String code() {
        return code;
    }

    public int ledgerStatus() {
        return ledgerStatus;
    }

    public String providerCode() {
        return providerCode;
    }
}
