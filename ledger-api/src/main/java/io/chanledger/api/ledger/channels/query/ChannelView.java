package io.chanledger.api.ledger.channels.query;

import io.chanledger.domain.channel.ChannelClaimed;
import io.chanledger.domain.channel.ChannelClosed;
import io.chanledger.domain.channel.ChannelEvent;
import io.chanledger.domain.channel.ChannelExpired;
import io.chanledger.domain.channel.ChannelOpenConfirmed;
import io.chanledger.domain.channel.ChannelOpened;
import io.chanledger.domain.channel.CloseAuthorized;
import io.chanledger.domain.channel.ExcessReturned;
import io.chanledger.domain.channel.HoldRaised;
import io.chanledger.domain.channel.RequestSettled;
import io.chanledger.domain.channel.VoucherAccepted;

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

    /** Whether this view includes the recorded event at all. */
    public boolean shows(Object event) {
        return this == FULL || event instanceof ChannelEvent channelEvent && onChain(channelEvent);
    }

    /**
     * Whether the event restates the contract's logs or its finalized state. A switch over every
     * channel event with no default, so that an event type added later does not compile until
     * someone decides whether it is public.
     */
    private static boolean onChain(ChannelEvent event) {
        return switch (event) {
            case ChannelOpened e -> true;
            case ChannelOpenConfirmed e -> true;
            case ChannelClaimed e -> true;
            case ChannelExpired e -> true;
            case ChannelClosed e -> true;
            case VoucherAccepted e -> false;
            case HoldRaised e -> false;
            case RequestSettled e -> false;
            case CloseAuthorized e -> false;
            // the transfer is public, but which channel it settles says what the channel was charged
            case ExcessReturned e -> false;
        };
    }
}
