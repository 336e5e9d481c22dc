package io.chanledger.api.gateway;

import io.chanledger.domain.channel.VoucherRejection;

/**
 * The provider interface's names for the ledger's voucher rejections (docs/protocol.md §C.3). A closed,
 * expired or closing channel is {@code channel_not_found}: the channel can pay for nothing more,
 * and what a client does about it is the same, open a new one; the message says which it was.
 * A voucher below the highest accepted one is {@code insufficient_funds}: it does not cover
 * what the channel already owes.
 */
public final class RejectionCodes {

    private RejectionCodes() {
    }

    public static String codeOf(VoucherRejection reason) {
        return switch (reason) {
            case INVALID_VOUCHER_FORMAT -> "invalid_voucher_format";
            case CHANNEL_NOT_FOUND, CHANNEL_CLOSED, CHANNEL_EXPIRED, CHANNEL_CLOSING -> "channel_not_found";
            case WRONG_PROVIDER -> "wrong_provider";
            case INVALID_SIGNATURE, WRONG_SIGNER -> "invalid_signature";
            case EXCEEDS_DEPOSIT -> "exceeds_deposit";
            case NONCE_NOT_INCREASING -> "invalid_nonce";
            case AMOUNT_NOT_INCREASING, INSUFFICIENT_FUNDS -> "insufficient_funds";
            case CLAIM_PENDING -> "claim_pending";
        };
    }
}
