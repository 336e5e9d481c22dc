package io.chanledger.domain.channel;

import static org.axonframework.modelling.command.AggregateLifecycle.apply;

import io.chanledger.domain.chain.ChainRef;
import io.chanledger.domain.money.Uint256;
import java.math.BigInteger;
import java.util.LinkedHashMap;
import org.axonframework.commandhandling.CommandHandler;
import org.axonframework.eventsourcing.EventSourcingHandler;
import org.axonframework.modelling.command.AggregateCreationPolicy;
import org.axonframework.modelling.command.AggregateIdentifier;
import org.axonframework.modelling.command.CreationPolicy;

/**
 * One payment channel, identified by its on-chain {@code channelId}. Decides which vouchers the
 * provider can rely on and keeps the chain's facts (claims, expiry, close) in step with them.
 * Handlers guard, then apply; only the event sourcing handlers assign state. Time and signer
 * identity always come in the command, so replaying the events gives the same channel.
 */
class ChannelAggregate {

    /** Accepted vouchers remembered by nonce, so a re-sent voucher gets its first answer back. */
    static final int REMEMBERED_VOUCHERS = 64;

    @AggregateIdentifier
    private String channelId;
    private String consumer;
    private String provider;
    private BigInteger deposit;
    private long expiry;
    private ChannelStatus status;
    private boolean provisional;
    private BigInteger highestAmount = BigInteger.ZERO;
    private BigInteger highestNonce;
    private BigInteger claimed = BigInteger.ZERO;
    private BigInteger claimedAtOpen = BigInteger.ZERO;
    private ChainRef lastChainRef;
    /** The amount of a close authorization asked for by the consumer: no more requests are paid for. */
    private BigInteger authorizedCloseAmount;
    /**
     * Amounts of close authorizations handed out on requests that did not prove they came from
     * the consumer, while the contract would still honour them (not below the claimed total).
     */
    private UnprovenCloses unprovenCloses = new UnprovenCloses();
    private LinkedHashMap<BigInteger, AcceptedTerms> recentVouchers = new LinkedHashMap<>();
    private BigInteger chargedTotal = BigInteger.ZERO;
    /** Unsettled requests of metered vouchers, by voucher nonce. */
    private LinkedHashMap<BigInteger, RequestHold> holds = new LinkedHashMap<>();

    record AcceptedTerms(BigInteger amount, BigInteger increment) {
    }

    record RequestHold(BigInteger amount, long until) {
    }

    ChannelAggregate() {
        // required by Axon to source the aggregate from its events
    }

    @CommandHandler
    @CreationPolicy(AggregateCreationPolicy.CREATE_IF_MISSING)
    void handle(OpenChannel command) {
        if (channelId == null) {
            apply(new ChannelOpened(command.channelId(), command.consumer(), command.provider(),
                    command.deposit(), command.expiry(), command.chainRef(), false, BigInteger.ZERO));
        } else if (provisional) {
            apply(new ChannelOpenConfirmed(command.channelId(), command.consumer(), command.provider(),
                    command.deposit(), command.expiry(), command.chainRef()));
        } else if (command.chainRef().isAfter(lastChainRef)) {
            throw new ChainFactConflictException("channel " + channelId + " was already opened by another log");
        }
        // otherwise the open log was applied before: nothing new to record
    }

    @CommandHandler
    @CreationPolicy(AggregateCreationPolicy.CREATE_IF_MISSING)
    void handle(OpenChannelProvisionally command) {
        if (channelId != null) {
            return; // the ledger already knows the channel; the lookup adds nothing
        }
        apply(new ChannelOpened(command.channelId(), command.consumer(), command.provider(),
                command.deposit(), command.expiry(), null, true, command.claimed()));
    }

    @CommandHandler
    VoucherReceipt handle(AcceptVoucher command) {
        BigInteger amount = command.amount();
        BigInteger nonce = command.nonce();
        if (!isUint256(amount) || !isUint256(nonce)) {
            throw rejection(VoucherRejection.INVALID_VOUCHER_FORMAT, "amount and nonce must be uint256 values");
        }
        if (command.metered() && !command.metering().provider().equalsIgnoreCase(provider)) {
            throw rejection(VoucherRejection.WRONG_PROVIDER, "channel " + channelId + " is opened to " + provider
                    + ", not to " + command.metering().provider());
        }
        if (status == ChannelStatus.CLOSED) {
            throw rejection(VoucherRejection.CHANNEL_CLOSED, "channel " + channelId + " is closed");
        }
        if (status == ChannelStatus.EXPIRED || command.receivedAt() >= expiry) {
            throw rejection(VoucherRejection.CHANNEL_EXPIRED, "channel " + channelId + " expired at " + expiry);
        }
        if (command.signer() == null || command.signature() == null) {
            throw rejection(VoucherRejection.INVALID_SIGNATURE, "the voucher carries no valid signature");
        }
        if (!command.signer().equalsIgnoreCase(consumer)) {
            throw rejection(VoucherRejection.WRONG_SIGNER,
                    "signed by " + command.signer() + ", not by the channel's consumer " + consumer);
        }
        if (command.metered()) {
            return acceptMetered(command);
        }
        AcceptedTerms earlier = recentVouchers.get(nonce);
        if (earlier != null && earlier.amount().equals(amount)) {
            return receipt(amount, nonce, earlier.increment(), true);
        }
        if (amount.compareTo(deposit) > 0) {
            throw rejection(VoucherRejection.EXCEEDS_DEPOSIT,
                    "amount " + amount + " exceeds the deposit " + deposit);
        }
        BigInteger floor = highestAmount.max(claimed).max(claimedAtOpen);
        if (amount.compareTo(floor) <= 0) {
            throw rejection(VoucherRejection.AMOUNT_NOT_INCREASING,
                    "amount " + amount + " is not above the highest accepted or claimed amount " + floor);
        }
        if (highestNonce != null && nonce.compareTo(highestNonce) <= 0) {
            throw rejection(VoucherRejection.NONCE_NOT_INCREASING,
                    "nonce " + nonce + " is not above the last accepted nonce " + highestNonce);
        }
        BigInteger increment = amount.subtract(highestAmount);
        apply(new VoucherAccepted(channelId, amount, nonce, command.signature(), increment, command.receivedAt()));
        return receipt(amount, nonce, increment, false);
    }

    /**
     * A voucher that pays for one request. Unlike a plain voucher it is never answered twice (a
     * re-sent voucher would get a second request served for one payment), and its amount may
     * equal the highest one as long as it covers what was charged, what running requests hold
     * and this request's hold: a client whose earlier buffer still covers pays nothing more.
     */
    private VoucherReceipt acceptMetered(AcceptVoucher command) {
        BigInteger amount = command.amount();
        BigInteger nonce = command.nonce();
        long now = command.receivedAt();
        if (authorizedCloseAmount != null) {
            throw rejection(VoucherRejection.CHANNEL_CLOSING, "the provider authorised the close of channel "
                    + channelId + " at " + authorizedCloseAmount + "; open a new channel");
        }
        checkCloseExposure(command);
        AcceptedTerms earlier = recentVouchers.get(nonce);
        if (earlier != null && earlier.amount().equals(amount)) {
            throw rejection(VoucherRejection.NONCE_NOT_INCREASING,
                    "voucher " + nonce + " already paid for a request; sign the next nonce");
        }
        if (highestNonce != null && nonce.compareTo(highestNonce) <= 0) {
            throw rejection(VoucherRejection.NONCE_NOT_INCREASING,
                    "nonce " + nonce + " is not above the last accepted nonce " + highestNonce);
        }
        if (amount.compareTo(deposit) > 0) {
            throw rejection(VoucherRejection.EXCEEDS_DEPOSIT,
                    "amount " + amount + " exceeds the deposit " + deposit);
        }
        BigInteger hold = command.metering().hold();
        BigInteger held = heldAt(now, null);
        BigInteger required = chargedTotal.add(held).add(hold).max(highestAmount).max(claimed).max(claimedAtOpen);
        if (amount.compareTo(required) < 0) {
            throw new VoucherRejectedException(VoucherRejection.INSUFFICIENT_FUNDS, "amount " + amount
                    + " does not cover the charged " + chargedTotal + ", the running requests' " + held
                    + " and this request's " + hold, required, hold, chargedTotal, amount.subtract(chargedTotal));
        }
        BigInteger increment = amount.subtract(highestAmount);
        apply(new VoucherAccepted(channelId, amount, nonce, command.signature(), increment, now, hold,
                command.metering().holdUntil(), chargedTotal));
        return new VoucherReceipt(channelId, amount, nonce, increment, deposit, deposit.subtract(amount),
                ChannelStatus.OPEN, false, chargedTotal, hold, amount.subtract(chargedTotal).subtract(held));
    }

    /**
     * After a close authorization that the consumer did not prove to have asked for, the consumer
     * holds a signature it could close with at that amount however much it is charged later. The
     * channel goes on paying for requests (a stranger must not be able to stop it), but what it is
     * charged above the lowest such authorization the contract would still honour is bounded by
     * the request's {@code closeExposure}; beyond it, requests wait until the provider's claim
     * above that authorization is recorded, which voids it on-chain.
     */
    private void checkCloseExposure(AcceptVoucher command) {
        BigInteger floor = unprovenCloses.floor();
        if (floor == null) {
            return;
        }
        BigInteger exposure = chargedTotal.add(heldAt(command.receivedAt(), null)).add(command.metering().hold())
                .subtract(floor);
        if (exposure.compareTo(command.metering().closeExposure()) > 0) {
            throw rejection(VoucherRejection.CLAIM_PENDING, "a close authorization of channel " + channelId + " at "
                    + floor + " is outstanding; requests above it by more than "
                    + command.metering().closeExposure() + " wait until the provider's claim is on-chain");
        }
    }

    /**
     * Charges the settled request at most its room (see {@link #roomOf}), so the charged total never
     * passes the highest voucher and no request is charged what another one holds.
     */
    @CommandHandler
    RequestSettlement handle(SettleRequest command) {
        BigInteger cost = command.cost();
        if (cost == null || cost.signum() < 0) {
            throw new IllegalArgumentException("a request's cost is a non-negative amount");
        }
        if (!holds.containsKey(command.nonce())) {
            return new RequestSettlement(channelId, command.nonce(), cost, BigInteger.ZERO, chargedTotal, deposit,
                    deposit.subtract(chargedTotal), false);
        }
        BigInteger charged = cost.min(roomOf(command.nonce(), command.settledAt(), command.closeExposure()));
        BigInteger total = chargedTotal.add(charged);
        apply(new RequestSettled(channelId, command.nonce(), cost, charged, total, command.settledAt()));
        return new RequestSettlement(channelId, command.nonce(), cost, charged, total, deposit, deposit.subtract(total),
                true);
    }

    /**
     * Raises a running request's hold toward what it asks for, as far as its room allows. A
     * streamed answer is sent chunk by chunk before it is settled, so it raises its hold before
     * sending past it: what it holds, no concurrent request can be charged.
     */
    @CommandHandler
    BigInteger handle(RaiseHold command) {
        RequestHold current = holds.get(command.nonce());
        if (current == null) {
            return BigInteger.ZERO;
        }
        BigInteger granted = command.wanted()
                .min(roomOf(command.nonce(), command.raisedAt(), command.closeExposure()))
                .max(current.amount());
        if (granted.compareTo(current.amount()) > 0) {
            apply(new HoldRaised(channelId, command.nonce(), granted, command.raisedAt()));
        }
        return granted;
    }

    /**
     * The most the running request of voucher {@code nonce} may be charged in all at {@code now}:
     * the highest voucher less the charged total and the other running requests' holds; while a
     * close authorization the consumer did not prove to have asked for is outstanding, also no more
     * than {@code closeExposure} above it, less those holds.
     */
    private BigInteger roomOf(BigInteger nonce, long now, BigInteger closeExposure) {
        BigInteger others = heldAt(now, nonce);
        BigInteger room = highestAmount.subtract(chargedTotal).subtract(others);
        BigInteger floor = unprovenCloses.floor();
        if (floor != null) {
            room = room.min(floor.add(closeExposure).subtract(chargedTotal).subtract(others));
        }
        return room.max(BigInteger.ZERO);
    }

    /** What unsettled requests hold at {@code now}, leaving out the request of voucher {@code except}. */
    private BigInteger heldAt(Long now, BigInteger except) {
        BigInteger held = BigInteger.ZERO;
        for (var entry : holds.entrySet()) {
            if (!entry.getKey().equals(except) && (now == null || entry.getValue().until() > now)) {
                held = held.add(entry.getValue().amount());
            }
        }
        return held;
    }

    @CommandHandler
    void handle(RecordClaim command) {
        if (!command.chainRef().isAfter(lastChainRef)) {
            return; // this log was already applied
        }
        if (status == ChannelStatus.CLOSED) {
            throw new ChainFactConflictException("claim on closed channel " + channelId);
        }
        BigInteger payout = command.payout();
        BigInteger fee = command.fee();
        if (payout.signum() <= 0 || fee.signum() < 0 || fee.compareTo(payout) > 0) {
            throw new ChainFactConflictException("claim of " + payout + " with fee " + fee + " is not a valid payout");
        }
        BigInteger total = claimed.add(payout);
        if (total.compareTo(deposit) > 0) {
            throw new ChainFactConflictException(
                    "claims of " + total + " would exceed the deposit " + deposit + " of " + channelId);
        }
        apply(new ChannelClaimed(channelId, provider, payout, fee, total, command.chainRef()));
    }

    @CommandHandler
    void handle(ExpireChannel command) {
        if (status != ChannelStatus.OPEN) {
            return; // already expired or closed: nothing to record
        }
        if (command.chainTime() < expiry) {
            throw new ChainFactConflictException("chain time " + command.chainTime()
                    + " has not reached the expiry " + expiry + " of " + channelId);
        }
        apply(new ChannelExpired(channelId, expiry, command.chainTime(), command.blockNumber()));
    }

    @CommandHandler
    void handle(RecordClose command) {
        if (!command.chainRef().isAfter(lastChainRef)) {
            return;
        }
        if (status == ChannelStatus.CLOSED) {
            throw new ChainFactConflictException("channel " + channelId + " closed twice");
        }
        BigInteger expectedRefund = deposit.subtract(claimed);
        if (!expectedRefund.equals(command.refund())) {
            throw new ChainFactConflictException("refund " + command.refund() + " of " + channelId
                    + " differs from deposit minus claimed, " + expectedRefund);
        }
        apply(new ChannelClosed(channelId, command.refund(), command.kind(), command.chainRef()));
    }

    @CommandHandler
    void handle(AuthorizeClose command) {
        BigInteger finalAmount = command.finalAmount();
        if (status == ChannelStatus.CLOSED) {
            throw new CloseAuthorizationRejectedException("channel " + channelId + " is closed");
        }
        if (finalAmount.compareTo(claimed) < 0 || finalAmount.compareTo(deposit) > 0) {
            throw new CloseAuthorizationRejectedException("final amount " + finalAmount
                    + " must lie between the claimed " + claimed + " and the deposit " + deposit);
        }
        if (finalAmount.compareTo(chargedTotal) < 0) {
            throw new CloseAuthorizationRejectedException("final amount " + finalAmount
                    + " is below what the channel was charged, " + chargedTotal);
        }
        BigInteger running = heldAt(command.requestedAt(), null);
        if (running.signum() > 0) {
            throw new CloseAuthorizationRejectedException("requests on channel " + channelId
                    + " are still running; their cost is not known yet");
        }
        if (finalAmount.equals(authorizedCloseAmount)
                || (!command.byConsumer() && unprovenCloses.contains(finalAmount))) {
            return;
        }
        apply(new CloseAuthorized(channelId, finalAmount, command.providerSignature(), command.byConsumer()));
    }

    @EventSourcingHandler
    void on(ChannelOpened event) {
        channelId = event.channelId();
        consumer = event.consumer();
        provider = event.provider();
        deposit = event.deposit();
        expiry = event.expiry();
        status = ChannelStatus.OPEN;
        provisional = event.provisional();
        claimedAtOpen = event.claimedAtOpen();
        lastChainRef = event.chainRef();
    }

    @EventSourcingHandler
    void on(ChannelOpenConfirmed event) {
        consumer = event.consumer();
        provider = event.provider();
        deposit = event.deposit();
        expiry = event.expiry();
        provisional = false;
        lastChainRef = event.chainRef();
    }

    @EventSourcingHandler
    void on(VoucherAccepted event) {
        highestAmount = event.amount();
        highestNonce = event.nonce();
        recentVouchers.put(event.nonce(), new AcceptedTerms(event.amount(), event.increment()));
        if (recentVouchers.size() > REMEMBERED_VOUCHERS) {
            recentVouchers.remove(recentVouchers.keySet().iterator().next());
        }
        if (event.metered()) {
            holds.put(event.nonce(), new RequestHold(event.hold(), event.holdUntil() == null ? 0 : event.holdUntil()));
        }
    }

    @EventSourcingHandler
    void on(HoldRaised event) {
        holds.computeIfPresent(event.nonce(), (nonce, hold) -> new RequestHold(event.hold(), hold.until()));
    }

    @EventSourcingHandler
    void on(RequestSettled event) {
        holds.remove(event.nonce());
        chargedTotal = event.chargedTotal();
    }

    @EventSourcingHandler
    void on(ChannelClaimed event) {
        claimed = event.totalClaimed();
        unprovenCloses.claimed(claimed);
        lastChainRef = event.chainRef();
    }

    @EventSourcingHandler
    void on(ChannelExpired event) {
        status = ChannelStatus.EXPIRED;
    }

    @EventSourcingHandler
    void on(ChannelClosed event) {
        status = ChannelStatus.CLOSED;
        lastChainRef = event.chainRef();
    }

    @EventSourcingHandler
    void on(CloseAuthorized event) {
        if (!event.stopsPayments()) {
            unprovenCloses.authorized(event);
            return;
        }
        authorizedCloseAmount = event.finalAmount();
    }

    private VoucherReceipt receipt(BigInteger amount, BigInteger nonce, BigInteger increment, boolean duplicate) {
        return new VoucherReceipt(channelId, amount, nonce, increment, deposit, deposit.subtract(amount),
                ChannelStatus.OPEN, duplicate);
    }

    private static boolean isUint256(BigInteger value) {
        return value != null && value.signum() >= 0 && value.compareTo(Uint256.MAX) <= 0;
    }

    private static VoucherRejectedException rejection(VoucherRejection reason, String detail) {
        return new VoucherRejectedException(reason, detail);
    }
}
