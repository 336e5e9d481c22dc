package io.chanledger.domain.channel;

import io.chanledger.domain.eip712.Hex;
import java.math.BigInteger;
import java.util.Objects;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * Admits a voucher. The signature was already checked against the contract's rule and
 * {@code signer} recovered from it before this command was sent; {@code receivedAt} (epoch
 * seconds) is the time the expiry is judged against. {@code metering} is null for a plain voucher
 * (the ledger API); the provider gateway sends the request the voucher pays for, and then the
 * voucher must also cover what the channel was charged so far plus this request's hold.
 * {@code openingFromContract} is the contract's view of a channel the ledger has not recorded
 * yet (null when none was read): the channel is then opened provisionally from it and the voucher
 * judged in the same decision.
 */
public record AcceptVoucher(
        SignedVoucher voucher,
        String signer,
        long receivedAt,
        MeteredRequest metering,
        OnChainChannel openingFromContract) implements ChannelCommand {

    public AcceptVoucher {
        Objects.requireNonNull(voucher, "voucher");
        Objects.requireNonNull(signer, "a voucher is judged once its signer is recovered");
    }

    /** A voucher given by its parts, as tests and tools write it. */
    public AcceptVoucher(String channelId, BigInteger amount, BigInteger nonce, String signature, String signer,
                         long receivedAt, MeteredRequest metering) {
        this(new SignedVoucher(channelId, amount, nonce, Hex.decode(signature)), signer, receivedAt, metering, null);
    }

    public AcceptVoucher(String channelId, BigInteger amount, BigInteger nonce, String signature, String signer,
                         long receivedAt) {
        this(channelId, amount, nonce, signature, signer, receivedAt, null);
    }

    /** The same voucher, to be judged with the contract's view of its channel. */
    public AcceptVoucher openingFrom(OnChainChannel channel) {
        return new AcceptVoucher(voucher, signer, receivedAt, metering, channel);
    }

    @Override
    @TargetAggregateIdentifier
    public String channelId() {
        return voucher.channelId();
    }

    public BigInteger amount() {
        return voucher.amount();
    }

    public BigInteger nonce() {
        return voucher.nonce();
    }

    public String signature() {
        return voucher.signatureHex();
    }

    public boolean metered() {
        return metering != null;
    }
}
