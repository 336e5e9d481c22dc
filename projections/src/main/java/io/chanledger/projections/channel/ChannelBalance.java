package io.chanledger.projections.channel;

import io.chanledger.domain.channel.ChannelEvent;
import io.chanledger.domain.channel.ChannelState;
import io.chanledger.domain.contract.ContractSettings;
import io.chanledger.projections.readmodel.SequencedRow;
import java.math.BigInteger;
import java.time.Instant;

/**
 * One channel's balance as its events left it: the channel's {@link ChannelState}, folded by its
 * own {@link ChannelState#apply}, so a row always equals the sequential replay of the channel's
 * events, plus the read model's bookkeeping: {@code lastActivity} is the time of the last event
 * and {@code lastSequence} its sequence number in the channel.
 */
public record ChannelBalance(ChannelState state, Instant lastActivity, long lastSequence) implements SequencedRow {

    /** The row a channel's first event creates. */
    public static ChannelBalance opened(ChannelEvent first, long sequence, Instant at) {
        return new ChannelBalance(ChannelState.opening(first), at, sequence);
    }

    /** The row after any event of the channel after the first. */
    public ChannelBalance apply(ChannelEvent event, long sequence, Instant at) {
        return new ChannelBalance(state.apply(event), at, sequence);
    }

    public String channelId() {
        return state.channelId();
    }

    @Override
    public String key() {
        return state.channelId();
    }

    /** {@link ChannelState#claimable()} less the fee in force that the contract would take from that payout now. */
    public BigInteger netClaimable(ContractSettings contract) {
        return contract.netOf(state.claimable());
    }
}
