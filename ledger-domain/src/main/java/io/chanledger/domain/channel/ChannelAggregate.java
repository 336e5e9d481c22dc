package io.chanledger.domain.channel;

import static org.axonframework.modelling.command.AggregateLifecycle.apply;

import io.chanledger.domain.chain.ChainRef;
import java.math.BigInteger;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Set;
import org.axonframework.commandhandling.CommandHandler;
import org.axonframework.eventsourcing.EventSourcingHandler;
import org.axonframework.modelling.command.AggregateCreationPolicy;
import org.axonframework.modelling.command.AggregateIdentifier;
import org.axonframework.modelling.command.CreationPolicy;
import org.axonframework.serialization.Revision;

/**
 * One payment channel, identified by its on-chain {@code channelId}. Decides which vouchers the
 * provider can rely on and keeps the chain's facts (claims, expiry, close) in step with them.
 * Handlers guard, then apply; only the event sourcing handlers assign state. Time and signer
 * identity always come in the command, so replaying the events gives the same channel.
 */
@Revision("4")
class ChannelAggregate {

    /**
     * Plain vouchers accepted last, remembered by nonce, so a re-sent one gets its first answer
     * back. A metered voucher is not remembered: it is never answered twice, and the nonce rule
     * alone refuses it again (every accepted nonce is at most the highest).
     */
    static final int REMEMBERED_VOUCHERS = 64;

    @AggregateIdentifier
    private String channelId;
    /** The channel as every reader of its events sees it: the one fold, {@link ChannelState#apply}. */
    private ChannelState state;
    /*
     * What only the decisions need, kept beside the fold: the chain's position of the last fact
     * recorded (a log seen again is not applied twice), the claims the chain reported when a
     * channel was opened from a lookup (before their logs are recorded), the amount of a close
     * the consumer asked for (no more requests are paid for after it), and recent vouchers.
     */
    private ChainRef lastChainRef;
    private BigInteger claimedAtOpen = BigInteger.ZERO;
    private BigInteger closeAskedByConsumer;
    /**
     * Amounts of close authorizations handed out on requests that did not prove they came from
     * the consumer, while the contract would still honour them (not below the claimed total).
     */
    private UnprovenCloses unprovenCloses = new UnprovenCloses();
    /** When the last of those was recorded (epoch seconds), or null: the next new one waits an interval after it. */
    private Long lastUnprovenCloseAt;
    private LinkedHashMap<BigInteger, AcceptedTerms> recentVouchers = new LinkedHashMap<>();
    /** Transactions of the returns recorded: a return is recorded once, whenever its log is seen again. */
    private Set<String> returnTransactions = new HashSet<>();

    record AcceptedTerms(BigInteger amount, BigInteger increment) {
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
        } else if (state.provisional()) {
            apply(new ChannelOpenConfirmed(command.channelId(), command.consumer(), command.provider(),
                    command.deposit(), command.expiry(), command.chainRef()));
        } else if (command.chainRef().isAfter(lastChainRef)) {
            throw new ChainFactConflictException("channel " + channelId + " was already opened by another log");
        }
        // otherwise the open log was applied before: nothing new to record
    }

    /**
     * A voucher for a channel the ledger has not recorded is refused, unless the command carries
     * the contract's view of it: the channel is then opened provisionally from that view (the
     * claims the contract paid out are a floor for later vouchers) and the voucher judged in the
     * same decision, one commit.
     */
    @CommandHandler
    @CreationPolicy(AggregateCreationPolicy.CREATE_IF_MISSING)
    VoucherReceipt handle(AcceptVoucher command) {
        if (state == null) {
            OnChainChannel onChain = command.openingFromContract();
            if (onChain == null) {
                throw rejection(VoucherRejection.CHANNEL_NOT_FOUND, "the ledger has no channel " + command.channelId());
            }
            apply(new ChannelOpened(command.channelId(), onChain.consumer(), onChain.provider(), onChain.deposit(),
                    onChain.expiry(), null, true, onChain.claimed()));
        }
        BigInteger amount = command.amount();
        BigInteger nonce = command.nonce();
        if (command.metered() && !command.metering().provider().equalsIgnoreCase(state.provider())) {
            throw rejection(VoucherRejection.WRONG_PROVIDER, "channel " + channelId + " is opened to "
                    + state.provider() + ", not to " + command.metering().provider());
        }
        if (state.status() == ChannelStatus.CLOSED) {
            throw rejection(VoucherRejection.CHANNEL_CLOSED, "channel " + channelId + " is closed");
        }
        if (state.status() == ChannelStatus.EXPIRED || command.receivedAt() >= state.expiry()) {
            throw rejection(VoucherRejection.CHANNEL_EXPIRED, "channel " + channelId + " expired at " + state.expiry());
        }
        if (!command.signer().equalsIgnoreCase(state.consumer())) {
            throw rejection(VoucherRejection.WRONG_SIGNER,
                    "signed by " + command.signer() + ", not by the channel's consumer " + state.consumer());
        }
        if (command.metered()) {
            return acceptMetered(command);
        }
        AcceptedTerms earlier = recentVouchers.get(nonce);
        if (earlier != null && earlier.amount().equals(amount)) {
            return receipt(amount, nonce, earlier.increment(), true);
        }
        if (amount.compareTo(state.deposit()) > 0) {
            throw rejection(VoucherRejection.EXCEEDS_DEPOSIT,
                    "amount " + amount + " exceeds the deposit " + state.deposit());
        }
        BigInteger floor = state.highestAmount().max(state.claimed()).max(claimedAtOpen);
        if (amount.compareTo(floor) <= 0) {
            throw rejection(VoucherRejection.AMOUNT_NOT_INCREASING,
                    "amount " + amount + " is not above the highest accepted or claimed amount " + floor);
        }
        if (state.highestNonce() != null && nonce.compareTo(state.highestNonce()) <= 0) {
            throw rejection(VoucherRejection.NONCE_NOT_INCREASING,
                    "nonce " + nonce + " is not above the last accepted nonce " + state.highestNonce());
        }
        BigInteger increment = amount.subtract(state.highestAmount());
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
        if (closeAskedByConsumer != null) {
            throw rejection(VoucherRejection.CHANNEL_CLOSING, "the provider authorised the close of channel "
                    + channelId + " at " + closeAskedByConsumer + "; open a new channel");
        }
        unprovenCloses.checkAdmits(channelId, state, now);
        if (state.highestNonce() != null && nonce.compareTo(state.highestNonce()) <= 0) {
            throw rejection(VoucherRejection.NONCE_NOT_INCREASING, "nonce " + nonce
                    + " is not above the last accepted nonce " + state.highestNonce()
                    + "; a voucher pays for one request: sign the next nonce");
        }
        if (amount.compareTo(state.deposit()) > 0) {
            throw rejection(VoucherRejection.EXCEEDS_DEPOSIT,
                    "amount " + amount + " exceeds the deposit " + state.deposit());
        }
        BigInteger hold = command.metering().hold();
        BigInteger held = state.heldAt(now);
        BigInteger charged = state.chargedTotal();
        BigInteger required = charged.add(held).add(hold)
                .max(state.highestAmount()).max(state.claimed()).max(claimedAtOpen);
        if (amount.compareTo(required) < 0) {
            throw new VoucherRejectedException(VoucherRejection.INSUFFICIENT_FUNDS, "amount " + amount
                    + " does not cover the charged " + charged + ", the running requests' " + held
                    + " and this request's " + hold, required, hold, charged, amount.subtract(charged));
        }
        BigInteger increment = amount.subtract(state.highestAmount());
        BigInteger deposit = state.deposit();
        apply(new VoucherAccepted(channelId, amount, nonce, command.signature(), increment, now, hold,
                command.metering().holdUntil(), charged, command.metering().model()));
        return new VoucherReceipt(channelId, amount, nonce, increment, deposit, deposit.subtract(amount),
                ChannelStatus.OPEN, false, charged, hold, amount.subtract(charged).subtract(held));
    }

    /**
     * Charges the settled request at most its room (see {@link #roomOf}), so the charged total never
     * passes the highest voucher and no request is charged what another one holds.
     */
    @CommandHandler
    RequestSettlement handle(SettleRequest command) {
        BigInteger cost = command.cost();
        BigInteger deposit = state.deposit();
        if (!state.holds().containsKey(command.nonce())) {
            return new RequestSettlement(channelId, command.nonce(), cost, BigInteger.ZERO, state.chargedTotal(),
                    deposit, deposit.subtract(state.chargedTotal()), false);
        }
        BigInteger charged = cost.min(roomOf(command.nonce(), command.settledAt()));
        BigInteger total = state.chargedTotal().add(charged);
        BigInteger floor = unprovenCloses.floor();
        boolean passedUnprovenClose = floor != null && state.chargedTotal().compareTo(floor) <= 0
                && total.compareTo(floor) > 0;
        apply(new RequestSettled(channelId, command.nonce(), cost, charged, total, command.settledAt()));
        return new RequestSettlement(channelId, command.nonce(), cost, charged, total, deposit, deposit.subtract(total),
                true, passedUnprovenClose);
    }

    /**
     * Raises a running request's hold toward what it asks for, as far as its room allows. A
     * streamed answer is sent chunk by chunk before it is settled, so it raises its hold before
     * sending past it: what it holds, no concurrent request can be charged.
     */
    @CommandHandler
    BigInteger handle(RaiseHold command) {
        ChannelState.Hold current = state.holds().get(command.nonce());
        if (current == null) {
            return BigInteger.ZERO;
        }
        BigInteger granted = command.wanted().min(roomOf(command.nonce(), command.raisedAt())).max(current.amount());
        if (granted.compareTo(current.amount()) > 0) {
            apply(new HoldRaised(channelId, command.nonce(), granted, command.raisedAt()));
        }
        return granted;
    }

    /**
     * The most the running request of voucher {@code nonce} may be charged in all at {@code now}:
     * the highest voucher less the charged total and the other running requests' holds; nothing
     * while the charged total is above a close authorization the consumer did not prove to have
     * asked for (one request has passed it already: a request admitted before its hold lapsed
     * does not pass it too).
     */
    private BigInteger roomOf(BigInteger nonce, long now) {
        BigInteger floor = unprovenCloses.floor();
        if (floor != null && state.chargedTotal().compareTo(floor) > 0) {
            return BigInteger.ZERO;
        }
        BigInteger others = state.heldAt(now, nonce);
        return state.highestAmount().subtract(state.chargedTotal()).subtract(others).max(BigInteger.ZERO);
    }

    @CommandHandler
    void handle(RecordClaim command) {
        if (!command.chainRef().isAfter(lastChainRef)) {
            return; // this log was already applied
        }
        if (state.status() == ChannelStatus.CLOSED) {
            throw new ChainFactConflictException("claim on closed channel " + channelId);
        }
        BigInteger payout = command.payout();
        BigInteger fee = command.fee();
        if (payout.signum() <= 0 || fee.signum() < 0 || fee.compareTo(payout) > 0) {
            throw new ChainFactConflictException("claim of " + payout + " with fee " + fee + " is not a valid payout");
        }
        BigInteger total = state.claimed().add(payout);
        if (total.compareTo(state.deposit()) > 0) {
            throw new ChainFactConflictException(
                    "claims of " + total + " would exceed the deposit " + state.deposit() + " of " + channelId);
        }
        apply(new ChannelClaimed(channelId, state.provider(), payout, fee, total, command.chainRef()));
    }

    @CommandHandler
    void handle(ExpireChannel command) {
        if (state.status() != ChannelStatus.OPEN) {
            return; // already expired or closed: nothing to record
        }
        if (command.chainTime() < state.expiry()) {
            throw new ChainFactConflictException("chain time " + command.chainTime()
                    + " has not reached the expiry " + state.expiry() + " of " + channelId);
        }
        apply(new ChannelExpired(channelId, state.expiry(), command.chainTime(), command.blockNumber()));
    }

    @CommandHandler
    void handle(RecordClose command) {
        if (!command.chainRef().isAfter(lastChainRef)) {
            return;
        }
        if (state.status() == ChannelStatus.CLOSED) {
            throw new ChainFactConflictException("channel " + channelId + " closed twice");
        }
        BigInteger expectedRefund = state.deposit().subtract(state.claimed());
        if (!expectedRefund.equals(command.refund())) {
            throw new ChainFactConflictException("refund " + command.refund() + " of " + channelId
                    + " differs from deposit minus claimed, " + expectedRefund);
        }
        apply(new ChannelClosed(channelId, command.refund(), command.kind(), command.chainRef()));
    }

    /**
     * A return is the provider's own transfer, recorded from its receipt by the watchtower rather
     * than by the listener, so it does not move the channel's chain position: a claim or close log
     * the listener has not reached yet may come before it on the chain.
     */
    @CommandHandler
    void handle(RecordExcessReturn command) {
        if (returnTransactions.contains(command.chainRef().txHash())) {
            return;
        }
        if (command.amount().signum() <= 0) {
            throw new ChainFactConflictException("a return of " + command.amount() + " on " + channelId
                    + " is not a transfer to the consumer");
        }
        apply(new ExcessReturned(channelId, state.consumer(), command.amount(), command.chainRef()));
    }

    @CommandHandler
    void handle(AuthorizeClose command) {
        BigInteger finalAmount = command.finalAmount();
        if (state.status() == ChannelStatus.CLOSED) {
            throw new CloseAuthorizationRejectedException("channel " + channelId + " is closed");
        }
        if (finalAmount.compareTo(state.claimed()) < 0 || finalAmount.compareTo(state.deposit()) > 0) {
            throw new CloseAuthorizationRejectedException("final amount " + finalAmount
                    + " must lie between the claimed " + state.claimed() + " and the deposit " + state.deposit());
        }
        if (finalAmount.compareTo(state.chargedTotal()) < 0) {
            throw new CloseAuthorizationRejectedException("final amount " + finalAmount
                    + " is below what the channel was charged, " + state.chargedTotal());
        }
        BigInteger running = state.heldAt(command.requestedAt());
        if (running.signum() > 0) {
            throw new CloseAuthorizationRejectedException("requests on channel " + channelId
                    + " are still running; their cost is not known yet");
        }
        if (finalAmount.equals(closeAskedByConsumer)
                || (!command.byConsumer() && unprovenCloses.contains(finalAmount))) {
            return;
        }
        if (!command.byConsumer() && lastUnprovenCloseAt != null
                && command.requestedAt() < lastUnprovenCloseAt + command.unprovenCloseInterval()) {
            throw new CloseAuthorizationRateLimitedException("channel " + channelId
                    + " was given an unsigned close authorization at another amount less than "
                    + command.unprovenCloseInterval() + " s ago; ask again later, or sign the request with the"
                    + " consumer's wallet", lastUnprovenCloseAt + command.unprovenCloseInterval() - command.requestedAt());
        }
        apply(new CloseAuthorized(channelId, finalAmount, command.providerSignature(), command.byConsumer(),
                command.byConsumer() ? null : command.requestedAt()));
    }

    @EventSourcingHandler
    void on(ChannelEvent event) {
        state = state == null ? ChannelState.opening(event) : state.apply(event);
        switch (event) {
            case ChannelOpened e -> {
                channelId = e.channelId();
                claimedAtOpen = e.claimedAtOpen();
                lastChainRef = e.chainRef();
            }
            case ChannelOpenConfirmed e -> lastChainRef = e.chainRef();
            case VoucherAccepted e -> {
                if (!e.metered()) {
                    recentVouchers.put(e.nonce(), new AcceptedTerms(e.amount(), e.increment()));
                    if (recentVouchers.size() > REMEMBERED_VOUCHERS) {
                        recentVouchers.remove(recentVouchers.keySet().iterator().next());
                    }
                }
            }
            case ChannelClaimed e -> {
                unprovenCloses.claimed(e.totalClaimed());
                lastChainRef = e.chainRef();
            }
            case ChannelClosed e -> lastChainRef = e.chainRef();
            case CloseAuthorized e -> {
                if (e.stopsPayments()) {
                    closeAskedByConsumer = e.finalAmount();
                } else {
                    unprovenCloses.authorized(e);
                    lastUnprovenCloseAt = e.authorizedAt();
                }
            }
            case HoldRaised e -> {
            }
            case RequestSettled e -> {
            }
            case ChannelExpired e -> {
            }
            case ExcessReturned e -> returnTransactions.add(e.chainRef().txHash());
        }
    }

    private VoucherReceipt receipt(BigInteger amount, BigInteger nonce, BigInteger increment, boolean duplicate) {
        BigInteger deposit = state.deposit();
        return new VoucherReceipt(channelId, amount, nonce, increment, deposit, deposit.subtract(amount),
                ChannelStatus.OPEN, duplicate);
    }

    private static VoucherRejectedException rejection(VoucherRejection reason, String detail) {
        return new VoucherRejectedException(reason, detail);
    }
}
