package io.chanledger.api.ledger.channels.query;

import io.chanledger.domain.chain.ChainRef;
import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Instant;
import org.axonframework.eventhandling.DomainEventMessage;

/**
 * One recorded event of a channel: type, sequence within the channel, when it was recorded, the
 * payload as stored, and its provenance — the chain ref of a chain fact, or the signature of an
 * accepted voucher. In the {@link ChannelView#ON_CHAIN} view {@code sequence} is left out: it counts
 * every event of the channel, so the gaps between on-chain events would count its vouchers.
 * Its OpenAPI schema is one per event type, with the payload's own fields
 * ({@link ChannelEventSchemas}).
 */
@Schema(name = ChannelEventSchemas.EVENT)
record ChannelEventResponse(String type, Long sequence, Instant timestamp, Object payload, ChainRef chainRef,
                            String signature) {

    static ChannelEventResponse of(DomainEventMessage<?> message, ChannelView view) {
        Object payload = message.getPayload();
        ChainRef chainRef = null;
        String signature = null;
        for (var component : payload.getClass().getRecordComponents()) {
            try {
                Object value = component.getAccessor().invoke(payload);
                if (value instanceof ChainRef ref) {
                    chainRef = ref;
                } else if (component.getName().equals("signature") || component.getName().equals("providerSignature")) {
                    signature = (String) value;
                }
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("cannot read " + component + " of a stored event", e);
            }
        }
        return new ChannelEventResponse(message.getPayloadType().getSimpleName(),
                view == ChannelView.FULL ? message.getSequenceNumber() : null, message.getTimestamp(), payload,
                chainRef, signature);
    }
}
