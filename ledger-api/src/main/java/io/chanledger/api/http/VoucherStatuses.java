package io.chanledger.api.http;

import io.chanledger.domain.channel.VoucherRejection;
import org.springframework.http.HttpStatus;

/** HTTP statuses of voucher rejections on the ledger API. */
public final class VoucherStatuses {

    private VoucherStatuses() {
    }

    public static HttpStatus statusOf(VoucherRejection reason) {
        return switch (reason) {
            case INVALID_VOUCHER_FORMAT -> HttpStatus.BAD_REQUEST;
            case CHANNEL_NOT_FOUND -> HttpStatus.NOT_FOUND;
            case AMOUNT_NOT_INCREASING, NONCE_NOT_INCREASING, CLAIM_PENDING -> HttpStatus.CONFLICT;
            case CHANNEL_CLOSED, CHANNEL_EXPIRED, CHANNEL_CLOSING -> HttpStatus.GONE;
            case INSUFFICIENT_FUNDS -> HttpStatus.PAYMENT_REQUIRED;
            case INVALID_SIGNATURE, WRONG_SIGNER, EXCEEDS_DEPOSIT, WRONG_PROVIDER -> HttpStatus.UNPROCESSABLE_ENTITY;
        };
    }
}
