package io.chanledger.api.provider.gateway;

import io.chanledger.api.ledger.channels.command.ChannelCommits;
import io.chanledger.api.ledger.channels.command.VoucherAdmission;
import io.chanledger.api.provider.ProviderIdentity;
import io.chanledger.api.provider.watchtower.Watchtower;
import io.chanledger.domain.channel.MeteredRequest;
import io.chanledger.domain.channel.RaiseHold;
import io.chanledger.domain.channel.RequestSettlement;
import io.chanledger.domain.channel.SettleRequest;
import io.chanledger.domain.channel.SignedVoucher;
import io.chanledger.domain.channel.VoucherReceipt;
import io.chanledger.domain.money.Uint256;
import java.math.BigInteger;
import java.time.Clock;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;

/**
 * A paid request's steps in the ledger. Before the upstream call the voucher goes through the
 * ledger's own admission with the request's hold (its input and a small output allowance); a
 * streamed answer raises that hold before it sends past it; afterwards the request is settled
 * with its actual cost (zero when it failed), which the Channel aggregate charges at most up to
 * what the vouched amount leaves beside the charged total and the other requests' holds. A
 * settlement that takes a channel past a close authorization asked for unsigned calls the
 * watchtower of this process to claim above it at once: until then the channel serves nothing.
 */
@Component
class Metering {

    private static final Logger log = LoggerFactory.getLogger(Metering.class);
    private static final int SETTLE_ATTEMPTS = 3;

    private final VoucherAdmission admission;
    private final ChannelCommits commits;
    private final Clock clock;
    private final Duration holdTtl;
    private final String provider;
    private final ObjectProvider<Watchtower> watchtower;
    /** Requests this instance admitted and has not settled yet, as channel/nonce. */
    private final Set<String> running = ConcurrentHashMap.newKeySet();

    Metering(VoucherAdmission admission, ChannelCommits commits, Clock clock, GatewayProperties properties,
             ProviderIdentity identity, ObjectProvider<Watchtower> watchtower) {
        this.admission = admission;
        this.commits = commits;
        this.clock = clock;
        this.holdTtl = properties.holdTtl();
        this.provider = identity.address();
        this.watchtower = watchtower;
    }

    /** Admits the voucher of a request for {@code model}, which its VoucherAccepted records. */
    VoucherReceipt admit(SignedVoucher voucher, BigInteger hold, String model) {
        long holdUntil = clock.instant().plus(holdTtl).getEpochSecond();
        VoucherReceipt receipt = admission.admit(voucher, new MeteredRequest(hold, holdUntil, provider, model));
        running.add(key(receipt.channelId(), receipt.nonce()));
        return receipt;
    }

    /** Whether this instance is still serving the request that voucher {@code nonce} of the channel paid for. */
    boolean running(String channelId, BigInteger nonce) {
        return running.contains(key(channelId, nonce));
    }

    private static String key(String channelId, BigInteger nonce) {
        return channelId + '/' + Uint256.decimal(nonce);
    }

    /**
     * Raises the request's hold toward {@code wanted}; answers the hold granted. When the ledger
     * cannot be reached the hold stays as it was ({@code current}): the stream then stops at what
     * it holds rather than send what might not be paid for.
     */
    BigInteger raiseHold(VoucherReceipt receipt, BigInteger current, BigInteger wanted) {
        try {
            return commits.raiseHold(new RaiseHold(receipt.channelId(), receipt.nonce(), wanted, now()));
        } catch (RuntimeException e) {
            log.warn("could not raise the hold of voucher {} on channel {}: {}", receipt.nonce(), receipt.channelId(),
                    e.toString());
            return current;
        }
    }

    /**
     * Records the request's cost. Retried a few times, since the request was served already; if
     * the ledger stays unreachable the hold lapses after its time and the cost is lost, which is
     * logged with the figures needed to bill it by hand.
     */
    RequestSettlement settle(VoucherReceipt receipt, BigInteger cost) {
        return settle(receipt, cost, null);
    }

    /**
     * {@link #settle(VoucherReceipt, BigInteger)}, with {@code alongside} run in the commit that
     * records the settlement (it keeps the paid answer), so the charge and what it paid for are
     * durable together or not at all.
     */
    RequestSettlement settle(VoucherReceipt receipt, BigInteger cost, Consumer<RequestSettlement> alongside) {
        try {
            RequestSettlement settlement = settleWithRetries(receipt, cost, alongside);
            if (settlement.passedUnprovenClose()) {
                watchtower.ifAvailable(w -> w.guardSoon(receipt.channelId()));
            }
            return settlement;
        } finally {
            running.remove(key(receipt.channelId(), receipt.nonce()));
        }
    }

    private RequestSettlement settleWithRetries(VoucherReceipt receipt, BigInteger cost,
                                                Consumer<RequestSettlement> alongside) {
        RuntimeException last = null;
        for (int attempt = 1; attempt <= SETTLE_ATTEMPTS; attempt++) {
            try {
                SettleRequest command = new SettleRequest(receipt.channelId(), receipt.nonce(), cost, now());
                return alongside == null ? commits.settle(command) : commits.settle(command, alongside);
            } catch (RuntimeException e) {
                last = e;
                pause(attempt);
            }
        }
        log.error("could not settle the request of voucher {} on channel {} at cost {}", receipt.nonce(),
                receipt.channelId(), cost, last);
        throw new GatewayProblem(HttpStatus.SERVICE_UNAVAILABLE, "settlement_unavailable",
                "the ledger could not record this request's cost; retry later");
    }

    /**
     * Settles at zero a request that ended without being settled (a failure nothing else caught),
     * so that its hold does not outlive it. Never throws: it runs on the way out of a failure
     * already being reported; if the ledger cannot be reached the hold lapses after its time.
     */
    void release(VoucherReceipt receipt) {
        try {
            settle(receipt, BigInteger.ZERO);
            log.warn("the request of voucher {} on channel {} ended unsettled; its hold was released at no charge",
                    receipt.nonce(), receipt.channelId());
        } catch (RuntimeException e) {
            log.warn("could not release the hold of voucher {} on channel {}: {}", receipt.nonce(),
                    receipt.channelId(), e.toString());
        }
    }

    private long now() {
        return clock.instant().getEpochSecond();
    }

    private static void pause(int attempt) {
        try {
            Thread.sleep(50L * attempt);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
