package io.chanledger.domain.channel;

import java.util.Arrays;
import java.util.List;

/**
 * An event of the Channel aggregate: the one list of them. The read side folds them with
 * {@link ChannelState#apply}, the rebuild decodes them from their record components, and the
 * auditor and the API name them from {@link #TYPES}, so a new event or a new field is added here
 * and in the fold, nowhere else.
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
