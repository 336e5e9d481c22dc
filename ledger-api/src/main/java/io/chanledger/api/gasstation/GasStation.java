package io.chanledger.api.gasstation;

import io.chanledger.api.gasstation.FaucetChain.FaucetFunds;
import io.chanledger.chain.rpc.RpcException;
import io.chanledger.chain.tx.SendResult;
import io.chanledger.domain.eip712.Hex;
import io.chanledger.domain.gasgrant.GasGrantFailure;
import io.chanledger.domain.gasgrant.GasGrantRefusal;
import io.chanledger.domain.gasgrant.GasGrantRefusedException;
import io.chanledger.projections.gasgrant.GasGrantRow;
import io.chanledger.projections.gasgrant.GasGrantTable;
import java.math.BigInteger;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.locks.ReentrantLock;
import org.axonframework.modelling.command.ConcurrencyException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.web3j.protocol.core.methods.response.TransactionReceipt;

/**
 * One gas grant request: the wallet's address is checked, then its USDC balance and the faucet's
 * funds (nothing is recorded for a refusal), then the grant is reserved in the wallet's GasGrant
 * aggregate, the send's start is recorded with the faucet's nonce, the transfer is signed and
 * broadcast, and the request waits for the receipt. Only a successful receipt makes a grant.
 */
class GasStation {

    private static final Logger log = LoggerFactory.getLogger(GasStation.class);

    private final String disabledReason;
    private final FaucetChain chain;
    private final GrantLedger ledger;
    private final GasGrantTable table;
    private final GrantRecovery recovery;
    private final LiveAttempts live;
    private final GasStationMetrics metrics;
    private final GasStationProperties settings;
    private final Clock clock;
    private final ReentrantLock faucetLock = new ReentrantLock();
    private volatile FaucetCheck lastCheck;

    /** The faucet as last read: its funds, or why they could not be read. */
    record FaucetCheck(FaucetFunds funds, String failure, Instant checkedAt) {
    }

    GasStation(FaucetChain chain, GrantLedger ledger, GasGrantTable table, GrantRecovery recovery, LiveAttempts live,
               GasStationMetrics metrics, GasStationProperties settings, Clock clock) {
        this(null, chain, ledger, table, recovery, live, metrics, settings, clock);
    }

    private GasStation(String disabledReason, FaucetChain chain, GrantLedger ledger, GasGrantTable table,
                       GrantRecovery recovery, LiveAttempts live, GasStationMetrics metrics,
                       GasStationProperties settings, Clock clock) {
        this.disabledReason = disabledReason;
        this.chain = chain;
        this.ledger = ledger;
        this.table = table;
        this.recovery = recovery;
        this.live = live;
        this.metrics = metrics;
        this.settings = settings;
        this.clock = clock;
    }

    /** A station that answers every request with {@code gas_station_disabled}. */
    static GasStation disabled(String reason, GasStationMetrics metrics, GasStationProperties settings, Clock clock) {
        return new GasStation(reason, null, null, null, null, null, metrics, settings, clock);
    }

    boolean enabled() {
        return disabledReason == null;
    }

    String disabledReason() {
        return disabledReason;
    }

    String faucet() {
        return chain == null ? null : chain.faucet();
    }

    BigInteger grantWei() {
        return settings.grantWei();
    }

    /** Null when the station is disabled. */
    GrantRecovery recovery() {
        return recovery;
    }

    /** Counts a refusal made before the station was asked (malformed body, rate limit). */
    GasStationReply counted(GasStationReply reply) {
        if (reply.status() != HttpStatus.OK) {
            metrics.refused(reply.code());
        }
        return reply;
    }

    GasStationReply request(String address) {
        return counted(decide(address));
    }

    private GasStationReply decide(String address) {
        if (!enabled()) {
            return GasStationReply.refused(HttpStatus.SERVICE_UNAVAILABLE, "gas_station_disabled",
                    "the gas station is not configured on this service");
        }
        String wallet;
        try {
            wallet = Hex.normalizeAddress(address);
        } catch (IllegalArgumentException e) {
            return GasStationReply.refused(HttpStatus.BAD_REQUEST, "invalid_address", "address: " + e.getMessage());
        }
        if (wallet.equals(chain.faucet())) {
            return GasStationReply.refused(HttpStatus.BAD_REQUEST, "invalid_address",
                    "address: that is the gas station's own faucet");
        }
        Optional<GasGrantRow> known = table.find(wallet);
        if (known.isPresent() && known.get().status() == GasGrantRow.Status.GRANTED) {
            return alreadyGranted(known.get().txHash());
        }
        try {
            BigInteger usdc = chain.usdcBalance(wallet);
            if (usdc.compareTo(settings.minUsdc()) < 0) {
                return GasStationReply.refused(HttpStatus.UNPROCESSABLE_ENTITY, "insufficient_usdc",
                        "the wallet holds " + usdc + " USDC base units; the gas station needs at least "
                                + settings.minUsdc(), Map.of("balance", usdc.toString(), "minimum",
                                settings.minUsdc().toString()), null);
            }
            FaucetFunds funds = checkFaucet();
            if (!funds.canPay()) {
                return faucetEmpty();
            }
        } catch (RpcException e) {
            log.warn("gas station: the chain could not be read for {}: {}", wallet, e.getMessage());
            return rpcUnavailable(null);
        }
        String attemptId = UUID.randomUUID().toString();
        live.add(attemptId);
        try {
            GasStationReply refusal = reserve(wallet, attemptId);
            return refusal != null ? refusal : send(wallet, attemptId);
        } finally {
            live.remove(attemptId);
        }
    }

    /** Null when the grant is reserved for this attempt, else the refusal to answer. */
    private GasStationReply reserve(String wallet, String attemptId) {
        for (int round = 0; ; round++) {
            try {
                ledger.reserve(wallet, attemptId, settings.grantWei());
                return null;
            } catch (GasGrantRefusedException refused) {
                if (refused.reason() == GasGrantRefusal.ALREADY_GRANTED) {
                    return alreadyGranted(refused.txHash());
                }
                if (refused.reason() != GasGrantRefusal.GRANT_PENDING) {
                    throw refused;
                }
                // the pending attempt may belong to a request that is gone: settle it from the chain first
                if (round == 0 && recovery.resolve(wallet)) {
                    continue;
                }
                return grantPending(refused.txHash());
            } catch (ConcurrencyException raced) {
                return grantPending(null);
            }
        }
    }

    private GasStationReply send(String wallet, String attemptId) {
        SendResult result;
        faucetLock.lock();
        try {
            long nonce;
            long block;
            try {
                // the sender then reads the node's pending count too, so the recorded nonce is the one it signs with
                chain.resyncNonce();
                nonce = chain.nonce(chain.faucet(), "pending");
                block = chain.blockNumber();
            } catch (RpcException e) {
                ledger.fail(wallet, attemptId, GasGrantFailure.NOT_SENT, null, "the faucet's nonce could not be read");
                return rpcUnavailable(null);
            }
            ledger.startSend(wallet, attemptId, chain.faucet(), nonce, block);
            // whatever happens from here on, the attempt is settled from what the chain shows
            result = chain.send(wallet, settings.grantWei());
        } finally {
            faucetLock.unlock();
        }
        return switch (result) {
            case SendResult.Mined mined -> {
                ledger.broadcast(wallet, attemptId, mined.txHash(), mined.nonce().longValueExact());
                yield confirmed(wallet, attemptId, mined.txHash(), mined.blockNumber());
            }
            case SendResult.Reverted reverted -> {
                ledger.broadcast(wallet, attemptId, reverted.txHash(), reverted.nonce().longValueExact());
                yield reverted(wallet, attemptId, reverted.txHash());
            }
            case SendResult.Refused refused -> {
                ledger.fail(wallet, attemptId, GasGrantFailure.NOT_SENT, null, refused.reason());
                log.warn("gas station: the node refused the transfer to {}: {}", wallet, refused.reason());
                yield refused.reason().toLowerCase(Locale.ROOT).contains("insufficient funds") ? faucetEmpty()
                        : GasStationReply.refused(HttpStatus.SERVICE_UNAVAILABLE, "transfer_refused",
                        "the node refused the transfer; nothing was sent", Map.of(), settings.retryAfter());
            }
            case SendResult.TransientFailure failure when failure.txHash() == null -> {
                ledger.fail(wallet, attemptId, GasGrantFailure.NOT_SENT, null, failure.reason());
                yield rpcUnavailable(null);
            }
            case SendResult.TransientFailure failure -> {
                ledger.broadcast(wallet, attemptId, failure.txHash(), null);
                yield awaitReceipt(wallet, attemptId, failure.txHash());
            }
            case SendResult.NotMined notMined -> {
                ledger.broadcast(wallet, attemptId, notMined.txHash(), notMined.nonce().longValueExact());
                yield awaitReceipt(wallet, attemptId, notMined.txHash());
            }
        };
    }

    private GasStationReply awaitReceipt(String wallet, String attemptId, String txHash) {
        long deadline = System.nanoTime() + settings.receiptTimeout().toNanos();
        boolean reachable = true;
        while (true) {
            try {
                Optional<TransactionReceipt> receipt = chain.receipt(txHash);
                if (receipt.isPresent()) {
                    return receipt.get().isStatusOK()
                            ? confirmed(wallet, attemptId, txHash, receipt.get().getBlockNumber().longValueExact())
                            : reverted(wallet, attemptId, txHash);
                }
                reachable = true;
            } catch (RpcException e) {
                reachable = false;
            }
            if (System.nanoTime() >= deadline || !pause(settings.receiptPollInterval())) {
                log.warn("gas station: transfer {} to {} has no receipt after {} ({}); it stays pending",
                        txHash, wallet, settings.receiptTimeout(), reachable ? "not mined yet" : "node unreachable");
                return reachable ? unconfirmed(txHash) : rpcUnavailable(txHash);
            }
        }
    }

    private GasStationReply confirmed(String wallet, String attemptId, String txHash, long blockNumber) {
        if (ledger.confirm(wallet, attemptId, txHash, blockNumber)) {
            metrics.granted(false);
        } else {
            log.error("gas station: transfer {} to {} was mined, but attempt {} could not be confirmed in the ledger",
                    txHash, wallet, attemptId);
        }
        return GasStationReply.granted(wallet, txHash, settings.grantWei());
    }

    private GasStationReply reverted(String wallet, String attemptId, String txHash) {
        ledger.fail(wallet, attemptId, GasGrantFailure.REVERTED, txHash, "the transfer was mined and reverted");
        return GasStationReply.refused(HttpStatus.UNPROCESSABLE_ENTITY, "transfer_reverted",
                "the transfer to the wallet reverted (a contract that refuses POL?); no POL arrived",
                Map.of("txHash", txHash), null);
    }

    /** Reads the faucet's funds and keeps them for health and the gauge. */
    FaucetFunds checkFaucet() {
        try {
            FaucetFunds funds = chain.funds(settings.grantWei());
            lastCheck = new FaucetCheck(funds, null, clock.instant());
            metrics.faucetBalance(funds.balance());
            return funds;
        } catch (RpcException e) {
            lastCheck = new FaucetCheck(null, e.getMessage(), clock.instant());
            throw e;
        }
    }

    /** The last faucet check, read again when older than {@code maxAge}. */
    FaucetCheck faucetCheck(Duration maxAge) {
        FaucetCheck check = lastCheck;
        if (check == null || check.checkedAt().plus(maxAge).isBefore(clock.instant())) {
            try {
                checkFaucet();
            } catch (RpcException e) {
                log.debug("gas station: faucet check failed: {}", e.getMessage());
            }
            check = lastCheck;
        }
        return check;
    }

    private GasStationReply alreadyGranted(String txHash) {
        return GasStationReply.refused(HttpStatus.CONFLICT, "already_granted",
                "this wallet has already received its gas grant", Map.of("txHash", txHash), null);
    }

    private GasStationReply grantPending(String txHash) {
        Map<String, Object> details = txHash == null ? Map.of() : Map.of("txHash", txHash);
        return GasStationReply.refused(HttpStatus.CONFLICT, "grant_pending",
                "a gas grant to this wallet is in progress; ask again later", details, settings.retryAfter());
    }

    private GasStationReply faucetEmpty() {
        return GasStationReply.refused(HttpStatus.SERVICE_UNAVAILABLE, "faucet_empty",
                "the gas station's faucet cannot pay a grant right now", Map.of(), settings.retryAfter());
    }

    private GasStationReply rpcUnavailable(String txHash) {
        Map<String, Object> details = txHash == null ? Map.of() : Map.of("txHash", txHash);
        return GasStationReply.refused(HttpStatus.SERVICE_UNAVAILABLE, "rpc_unavailable",
                "the chain node is unavailable" + (txHash == null ? "; nothing was sent"
                        : "; the transfer may have been sent and is settled when the node answers again"),
                details, settings.retryAfter());
    }

    private GasStationReply unconfirmed(String txHash) {
        return GasStationReply.refused(HttpStatus.SERVICE_UNAVAILABLE, "transfer_unconfirmed",
                "the transfer was sent but is not mined yet; ask again later", Map.of("txHash", txHash),
                settings.retryAfter());
    }

    private static boolean pause(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
