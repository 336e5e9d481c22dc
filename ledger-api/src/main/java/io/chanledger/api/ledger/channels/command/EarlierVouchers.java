package io.chanledger.api.ledger.channels.command;

import io.chanledger.domain.channel.ChannelState;
import io.chanledger.domain.channel.ChannelStatus;
import io.chanledger.domain.channel.SignedVoucher;
import io.chanledger.domain.channel.VoucherAccepted;
import io.chanledger.domain.channel.VoucherReceipt;
import io.chanledger.domain.channel.VoucherRejection;
import io.chanledger.domain.eip712.Hex;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.axonframework.eventhandling.DomainEventMessage;
import org.springframework.stereotype.Component;

/**
 * Finds a re-sent plain voucher in its channel's recorded history. The Channel aggregate remembers
 * only its most recent vouchers, and refuses an older one re-sent as not increasing; whether it is
 * exactly a voucher accepted before is a question for the event store, asked here, outside the
 * aggregate (which does no I/O) and only after such a refusal, never on the way to an acceptance.
 */
@Component
class EarlierVouchers {

    /** Bytes of r ‖ s: the part of a signature both spellings of v share. */
    private static final int SIGNATURE_R_S_BYTES = 64;

    private final ChannelHistory history;

    EarlierVouchers(ChannelHistory history) {
        this.history = history;
    }

    /** Whether a refusal for {@code reason} may be a voucher the channel accepted long ago. */
    static boolean mayBeResent(VoucherRejection reason) {
        return reason == VoucherRejection.AMOUNT_NOT_INCREASING || reason == VoucherRejection.NONCE_NOT_INCREASING;
    }

    /**
     * The answer the ledger gave {@code voucher} the first time, marked as a duplicate, when the
     * channel accepted exactly it before (same nonce, amount and signature) and is still open;
     * otherwise empty, and the refusal stands.
     */
    Optional<VoucherReceipt> firstAnswer(SignedVoucher voucher) {
        List<Object> events = history.events(voucher.channelId()).stream()
                .<Object>map(DomainEventMessage::getPayload)
                .toList();
        Optional<VoucherAccepted> earlier = events.stream()
                .filter(event -> event instanceof VoucherAccepted accepted && isSameVoucher(accepted, voucher))
                .map(VoucherAccepted.class::cast)
                .findFirst();
        if (earlier.isEmpty()) {
            return Optional.empty();
        }
        ChannelState channel = ChannelState.replay(events);
        if (channel.status() != ChannelStatus.OPEN) {
            return Optional.empty();
        }
        VoucherAccepted accepted = earlier.get();
        return Optional.of(new VoucherReceipt(voucher.channelId(), accepted.amount(), accepted.nonce(),
                accepted.increment(), channel.deposit(), channel.deposit().subtract(accepted.amount()),
                ChannelStatus.OPEN, true));
    }

    private static boolean isSameVoucher(VoucherAccepted accepted, SignedVoucher voucher) {
        if (!accepted.nonce().equals(voucher.nonce()) || !accepted.amount().equals(voucher.amount())
                || accepted.signature() == null) {
            return false;
        }
        byte[] recorded = Hex.decode(accepted.signature());
        byte[] presented = voucher.signature();
        return recorded.length == presented.length && presented.length > SIGNATURE_R_S_BYTES
                && Arrays.equals(recorded, 0, SIGNATURE_R_S_BYTES, presented, 0, SIGNATURE_R_S_BYTES);
    }
}
