package io.chanledger.projections.provideraccount;

import io.chanledger.domain.channel.ChannelStatus;
import io.chanledger.projections.readmodel.SequencedRow;
import java.math.BigInteger;
import java.time.Instant;

/** What one channel contributes to its provider's account, folded from the channel's events. */
public record ProviderChannel(
        String channelId,
        String provider,
        ChannelStatus status,
        long expiry,
        BigInteger highest,
        BigInteger claimed,
        BigInteger feesPaid,
        Instant lastActivity,
        long lastSequence) implements SequencedRow {

    static ProviderChannel opened(String channelId, String provider, long expiry, long sequence, Instant at) {
        return new ProviderChannel(channelId, provider, ChannelStatus.OPEN, expiry, BigInteger.ZERO, BigInteger.ZERO,
                BigInteger.ZERO, at, sequence);
    }

    ProviderChannel confirmed(String newProvider, long newExpiry, long sequence, Instant at) {
        return new ProviderChannel(channelId, newProvider, status, newExpiry, highest, claimed, feesPaid, at, sequence);
    }

    ProviderChannel vouched(BigInteger amount, long sequence, Instant at) {
        return new ProviderChannel(channelId, provider, status, expiry, amount, claimed, feesPaid, at, sequence);
    }

    ProviderChannel claimed(BigInteger totalClaimed, BigInteger fee, long sequence, Instant at) {
        return new ProviderChannel(channelId, provider, status, expiry, highest, totalClaimed, feesPaid.add(fee), at,
                sequence);
    }

    ProviderChannel withStatus(ChannelStatus newStatus, long sequence, Instant at) {
        return new ProviderChannel(channelId, provider, newStatus, expiry, highest, claimed, feesPaid, at, sequence);
    }

    @Override
    public String key() {
        return channelId;
    }

    /** Same rule as the channel balance: highest voucher less claimed, nothing once closed. */
    public BigInteger claimable() {
        return status == ChannelStatus.CLOSED ? BigInteger.ZERO : highest.subtract(claimed).max(BigInteger.ZERO);
    }

    Totals totals() {
        return new Totals(1, status == ChannelStatus.OPEN ? 1 : 0, status == ChannelStatus.EXPIRED ? 1 : 0,
                claimable(), claimed, feesPaid);
    }
}
