package io.chanledger.projections.provideraccount;

import io.chanledger.domain.channel.ChannelState;
import io.chanledger.domain.channel.ChannelStatus;
import io.chanledger.projections.channel.ChannelBalance;
import java.math.BigInteger;

/** Additive figures of a provider account; each channel contributes one of these to its provider. */
record Totals(long channels, long openChannels, long expiredChannels, BigInteger claimable, BigInteger claimed,
              BigInteger feesPaid) {

    static final Totals ZERO = new Totals(0, 0, 0, BigInteger.ZERO, BigInteger.ZERO, BigInteger.ZERO);

    static Totals of(ChannelBalance balance) {
        ChannelState channel = balance.state();
        return new Totals(1, channel.status() == ChannelStatus.OPEN ? 1 : 0,
                channel.status() == ChannelStatus.EXPIRED ? 1 : 0, channel.claimable(), channel.claimed(),
                channel.feesPaid());
    }

    Totals plus(Totals other) {
        return new Totals(channels + other.channels, openChannels + other.openChannels,
                expiredChannels + other.expiredChannels, claimable.add(other.claimable), claimed.add(other.claimed),
                feesPaid.add(other.feesPaid));
    }

    Totals minus(Totals other) {
        return new Totals(channels - other.channels, openChannels - other.openChannels,
                expiredChannels - other.expiredChannels, claimable.subtract(other.claimable),
                claimed.subtract(other.claimed), feesPaid.subtract(other.feesPaid));
    }
}
