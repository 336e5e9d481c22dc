package io.chanledger.api.channels;

import io.chanledger.domain.channel.ChannelClaimed;
import io.chanledger.domain.channel.ChannelClosed;
import io.chanledger.domain.channel.ChannelExpired;
import io.chanledger.domain.channel.ChannelOpenConfirmed;
import io.chanledger.domain.channel.ChannelOpened;
import java.util.Set;

/**
 * How much of one channel a caller sees. Off-chain figures (vouchers, their amounts, nonces and
 * signatures, increments, holds, charged totals, close authorizations, and whatever is derived
 * from them) tell a competitor a provider's revenue and an agent's spending, so they go only to
 * the channel's parties and the admin; everyone else sees what the contract and its logs show
 * anyway. {@link ChannelViewer} decides which view a caller gets.
 */
public enum ChannelView {

    /** What anyone can read from the contract and its logs. */
    ON_CHAIN,
    /** Everything the ledger holds, voucher signatures included. */
    FULL;

    /*
     * The events that restate the contract's logs or its finalized state. Listed rather than
     * excluded, so that an event type added later stays private until someone decides otherwise.
     */
    private static final Set<Class<?>> ON_CHAIN_EVENTS = Set.of(ChannelOpened.class, ChannelOpenConfirmed.class,
            ChannelClaimed.class, ChannelExpired.class, ChannelClosed.class);

    /** Whether this view includes the recorded event at all. */
    public boolean shows(Object event) {
        return this == FULL || ON_CHAIN_EVENTS.contains(event.getClass());
    }
}
