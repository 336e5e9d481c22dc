package io.chanledger.domain.channel;

import java.math.BigInteger;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * Admits a voucher. The signature was already checked against the contract's rule and
 * {@code signer} recovered from it before this command was sent; {@code receivedAt} (epoch
 * seconds) is the time the expiry is judged against. {@code metering} is null for a plain voucher
 * (the ledger API); the provider gateway sends the request the voucher pays for, and then the
 * voucher must also cover what the channel was charged so far plus this request's hold.
 */
public record AcceptVoucher(
        @TargetAggregateIdentifier String channelId,
        BigInteger amount,
        BigInteger nonce,
        String signature,
        String signer,
        long receivedAt,
        MeteredRequest metering) implements ChannelCommand {

    public AcceptVoucher(String channelId, BigInteger amount, BigInteger nonce, String signature, String signer,
                         long receivedAt) {
        this(channelId, amount, nonce, signature, signer, receivedAt, null);
    }

    public boolean metered() {
        return metering != null;
    }
}
