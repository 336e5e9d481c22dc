package io.chanledger.api.provider.watchtower;

import io.chanledger.api.provider.gateway.GatewayProperties;
import io.chanledger.api.provider.watchtower.ClaimStore.Claim;
import io.chanledger.api.provider.watchtower.ClaimStore.Status;
import io.chanledger.chain.rpc.EthApi;
import io.chanledger.chain.rpc.RpcException;
import io.chanledger.chain.tx.CallResult;
import io.chanledger.chain.tx.SendResult;
import io.chanledger.chain.tx.TransactionRequest;
import io.chanledger.chain.tx.TransactionSender;
import io.chanledger.domain.channel.ChannelLookup;
import io.chanledger.domain.channel.OnChainChannel;
import java.math.BigInteger;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.web3j.abi.FunctionEncoder;
import org.web3j.abi.datatypes.DynamicBytes;
import org.web3j.abi.datatypes.Function;
import org.web3j.abi.datatypes.generated.Bytes32;
import org.web3j.abi.datatypes.generated.Uint256;
import org.web3j.protocol.core.methods.response.TransactionReceipt;
import org.web3j.utils.Numeric;

/**
 * Takes one claim one step further: simulate, send, or look after a transaction sent earlier.
 *
 * <p>A claim is simulated before it is sent, so the contract's refusals are known without paying
 * gas. Refusals that no retry can change ({@code InvalidAmount}, {@code ChannelNotFound},
 * {@code InvalidSignature}, {@code NotProvider}) stop the claim for good, unless the contract
 * already holds a claim of at least this amount (an earlier send of ours that got mined), which
 * makes it a success. Unreachable or rate-limited nodes and refused fees are transient: retried
 * after a backoff that doubles up to the maximum, for as long as it takes. Anything else (a mined
 * transaction that reverted, a refusal without a revert) is retried up to the attempt limit.
 */
final class ClaimExecutor {

    private static final Logger log = LoggerFactory.getLogger(ClaimExecutor.class);
    static final Set<String> PERMANENT_REVERTS = Set.of("InvalidAmount", "ChannelNotFound", "InvalidSignature",
            "NotProvider");

    private final TransactionSender sender;
    private final EthApi eth;
    private final ChannelLookup contract;
    private final String contractAddress;
    private final ClaimStore store;
    private final Clock clock;
    private final WatchtowerProperties settings;
    private final WatchtowerMetrics metrics;

    ClaimExecutor(TransactionSender sender, EthApi eth, ChannelLookup contract, String contractAddress,
                  ClaimStore store, Clock clock, WatchtowerProperties settings, WatchtowerMetrics metrics) {
        this.sender = sender;
        this.eth = eth;
        this.contract = contract;
        this.contractAddress = contractAddress;
        this.store = store;
        this.clock = clock;
        this.settings = settings;
        this.metrics = metrics;
    }

    String provider() {
        return sender.address();
    }

    /** The stored claim after this step. */
    Claim step(ClaimPlanner.Plan plan) {
        Instant now = clock.instant();
        Optional<Claim> existing = store.find(plan.channelId(), plan.amount());
        Claim claim = existing.orElseGet(() -> new Claim(plan.channelId(), plan.amount(), provider(), plan.nonce(),
                plan.reason(), Status.PENDING, 0, 0, now, null, null));
        if (existing.isEmpty()) {
            store.insert(claim, now);
        }
        if (claim.status() == Status.MINED || claim.status() == Status.CONFIRMED || claim.status() == Status.FAILED
                || claim.nextAttemptAt().isAfter(now)) {
            return claim;
        }
        Claim next;
        try {
            next = attempt(plan, claim.tried(), now);
        } catch (RpcException e) {
            next = e.isTransient() ? transientFailure(claim.tried(), now, e.getMessage(), claim.txHash())
                    : retryOrFail(claim.tried(), now, e.getMessage());
        }
        store.update(next, now);
        return next;
    }

    private Claim attempt(ClaimPlanner.Plan plan, Claim claim, Instant now) {
        if (claim.txHash() != null) {
            Optional<TransactionReceipt> receipt = eth.receipt(claim.txHash());
            if (receipt.isPresent() && receipt.get().isStatusOK()) {
                return mined(claim, claim.txHash());
            }
            if (receipt.isEmpty() && contractClaimed(plan).compareTo(plan.amount()) < 0
                    && eth.transaction(claim.txHash()).isPresent()) {
                return claim.with(Status.SENT, now.plus(backoff(claim.attempts())), claim.txHash(),
                        "waiting for transaction " + claim.txHash() + " to be mined");
            }
        }
        if (contractClaimed(plan).compareTo(plan.amount()) >= 0) {
            return mined(claim, claim.txHash());
        }
        TransactionRequest request = TransactionRequest.call(contractAddress, callData(plan));
        CallResult simulated = sender.simulate(request);
        if (!simulated.success()) {
            return refused(plan, claim, now, simulated.revertReason());
        }
        SendResult result = sender.send(request);
        return switch (result) {
            case SendResult.Mined mined -> mined(claim, mined.txHash());
            case SendResult.NotMined notMined -> claim.with(Status.SENT, now.plus(backoff(claim.attempts())),
                    notMined.txHash(), "no receipt yet");
            case SendResult.TransientFailure failure -> transientFailure(claim, now, failure.reason(), failure.txHash());
            case SendResult.Reverted reverted -> retryOrFail(claim, now,
                    "transaction " + reverted.txHash() + " reverted: " + reverted.revertReason());
            case SendResult.Refused refusal -> refusal.revertReason() != null
                    ? refused(plan, claim, now, refusal.revertReason())
                    : retryOrFail(claim, now, refusal.reason());
        };
    }

    private Claim refused(ClaimPlanner.Plan plan, Claim claim, Instant now, String reason) {
        if (contractClaimed(plan).compareTo(plan.amount()) >= 0) {
            return mined(claim, claim.txHash());
        }
        if (reason != null && PERMANENT_REVERTS.contains(reason)) {
            log.error("claim of {} on channel {} fails for good: the contract refuses it with {}; not retried",
                    plan.amount(), plan.channelId(), reason);
            metrics.claim("failed");
            return claim.failed().with(Status.FAILED, now, claim.txHash(), "reverts with " + reason);
        }
        return retryOrFail(claim, now, "reverts with " + reason);
    }

    private Claim retryOrFail(Claim claim, Instant now, String error) {
        Claim failed = claim.failed();
        if (failed.failures() >= settings.maxAttempts()) {
            log.error("claim of {} on channel {} failed {} times, last: {}; not retried", claim.amount(),
                    claim.channelId(), failed.failures(), error);
            metrics.claim("failed");
            return failed.with(Status.FAILED, now, claim.txHash(), error);
        }
        log.warn("claim of {} on channel {} failed (failure {} of {}): {}", claim.amount(), claim.channelId(),
                failed.failures(), settings.maxAttempts(), error);
        metrics.claim("retried");
        return failed.with(Status.PENDING, now.plus(backoff(claim.attempts())), null, error);
    }

    /** Never exhausts the claim: transient failures only stretch the backoff. */
    private Claim transientFailure(Claim claim, Instant now, String error, String txHash) {
        log.warn("claim of {} on channel {} hit a transient failure (attempt {}), retrying: {}", claim.amount(),
                claim.channelId(), claim.attempts(), error);
        metrics.claim("transient");
        return claim.with(txHash != null ? Status.SENT : Status.PENDING, now.plus(backoff(claim.attempts())), txHash,
                error);
    }

    private Claim mined(Claim claim, String txHash) {
        log.info("claim of {} on channel {} mined ({})", claim.amount(), claim.channelId(), txHash);
        metrics.claim("mined");
        return claim.with(Status.MINED, clock.instant(), txHash, null);
    }

    private BigInteger contractClaimed(ClaimPlanner.Plan plan) {
        return contract.find(plan.channelId()).map(OnChainChannel::claimed).orElse(BigInteger.ZERO);
    }

    Duration backoff(int failures) {
        return backoff(settings, failures);
    }

    /** The wait after {@code failures} tries: the initial backoff doubled per try, at most the maximum. */
    static Duration backoff(WatchtowerProperties settings, int failures) {
        long factor = 1L << Math.min(Math.max(failures - 1, 0), 20);
        Duration wait = settings.initialBackoff().multipliedBy(factor);
        return wait.compareTo(settings.maxBackoff()) > 0 ? settings.maxBackoff() : wait;
    }

    static String callData(ClaimPlanner.Plan plan) {
        return FunctionEncoder.encode(new Function("claim", List.of(
                new Bytes32(Numeric.hexStringToByteArray(plan.channelId())), new Uint256(plan.amount()),
                new Uint256(plan.nonce()), new DynamicBytes(Numeric.hexStringToByteArray(plan.signature()))),
                List.of()));
    }
}
