package io.chanledger.domain.channel;

import java.util.Arrays;
import java.util.List;

/**
 * An event of the Channel aggregate: the one list of them. The read side folds them with
 * {@link ChannelState#apply}; the rebuild and the auditor decode them with one decoder
 * ({@code ChannelEventDecoder}) from their record components, and the event table selects them by
 * {@link #TYPES}. The auditor keeps checks of its own rather than the fold, but switches over this
 * sealed type without a default: a new event is added here and in the fold, and the compiler then
 * names the auditor's switch; a new field is decoded with no change.
 */
public sealed interface ChannelEvent
        permits ChannelOpened, ChannelOpenConfirmed, VoucherAccepted, HoldRaised, RequestSettled, ChannelClaimed,
        ChannelExpired, ChannelClosed, CloseAuthorized, ExcessReturned {

    /** Every channel event type, in the order they are declared above. */
    List<Class<? extends ChannelEvent>> TYPES = Arrays.stream(ChannelEvent.class.getPermittedSubclasses())
            .<Class<? extends ChannelEvent>>map(type -> type.asSubclass(ChannelEvent.class))
            .toList();

    /** The on-chain {@code channelId} the event is about: its aggregate identifier. */
    String channelId();
}
