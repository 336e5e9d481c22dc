package io.chanledger.api.ledger.channels.command;

import io.chanledger.domain.channel.VoucherReceipt;
import java.math.BigInteger;

/** The ledger's answer to an accepted voucher. Amounts are decimal strings of base units. */
record VoucherReceiptResponse(String channelId, BigInteger amount, BigInteger nonce, BigInteger increment,
                              BigInteger deposit, BigInteger remaining, String status, boolean duplicate) {

    static VoucherReceiptResponse of(VoucherReceipt receipt) {
        return new VoucherReceiptResponse(receipt.channelId(), receipt.amount(), receipt.nonce(), receipt.increment(),
                receipt.deposit(), receipt.remaining(), receipt.status().code(), receipt.duplicate());
    }
}
