package io.chanledger.domain.channel;

import java.math.BigInteger;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * Admits a voucher. The signature was already checked against the contract's rule and
 * {@code signer} recovered from it before this command was sent; {@code receivedAt} (epoch
 * seconds) is the time the expiry is judged against.
 */
public record AcceptVoucher(
        @TargetAggregateIdentifier String channelId,
        BigInteger amount,
        BigInteger nonce,
        String signature,
        String signer,
        long receivedAt) {
}
