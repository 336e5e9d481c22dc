package io.chanledger.domain.channel;

/**
 * A command the Channel aggregate handles. The application needs the target channel of any of
 * them before the aggregate is loaded: an instance that shares the event store with others must
 * first make sure its cached copy of the channel is as new as the store.
 */
public sealed interface ChannelCommand
        permits OpenChannel, AcceptVoucher, SettleRequest, RaiseHold, RecordClaim,
        ExpireChannel, RecordClose, AuthorizeClose, RecordExcessReturn {

    String channelId();
}
