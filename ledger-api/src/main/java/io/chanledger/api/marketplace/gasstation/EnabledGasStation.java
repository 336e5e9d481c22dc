package io.chanledger.api.marketplace.gasstation;

import io.chanledger.api.marketplace.gasstation.FaucetChain.FaucetFunds;
import io.chanledger.chain.rpc.RpcException;
import io.chanledger.chain.tx.SendResult;
import io.chanledger.domain.eip712.Hex;
import io.chanledger.domain.gasgrant.GasGrantFailure;
import io.chanledger.domain.gasgrant.GasGrantRefusal;
import io.chanledger.domain.gasgrant.GasGrantRefusedException;
import io.chanledger.projections.gasgrant.GasGrantRow;
import io.chanledger.projections.gasgrant.GasGrantTable;
import io.chanledger.api.http.ClientRateLimiter;
import java.math.BigInteger;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.locks.ReentrantLock;
import org.axonframework.modelling.command.ConcurrencyException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One gas grant request: the wallet's address is checked, then on the chain that it holds no contract code, its USDC balance, that the transfer would go
 * through (simulated from the faucet, gas limit included) and the faucet's funds; nothing is
 * recorded or sent for a refusal, so a contract that refuses POL costs the faucet nothing. Then,
 * unless the budget of all grants is spent, the grant is reserved in the wallet's GasGrant
 * aggregate, a token of that budget is taken, the send's start is recorded with the faucet's nonce,
 * the transfer is signed and broadcast, and the request waits for the receipt. Only a successful
 * receipt makes a grant.
 *
 * <p>The budget counts grants made, not requests: a token is taken only by the request that holds
 * the wallet's reservation (so concurrent requests for one wallet take one between them), and is
 * given back when the attempt ends without a transfer that may have paid (refused by the node,
 * failed before the send, reverted). A transfer whose outcome is not known yet keeps its token.
 */
final class EnabledGasStation implements GasStation {

    // the gas station's log lines keep the category they had before its parts were split up
    private static final Logger log = LoggerFactory.getLogger(GasStation.class);

    private static final String ALL_WALLETS = "(all wallets)";

    private final FaucetChain chain;
    private final GrantLedger ledger;
    private final GasGrantTable table;
    private final GrantRecovery recovery;
    private final LiveAttempts live;
    private final FaucetHealth faucetHealth;
    private final ReceiptWait receipts;
    private final GasStationMetrics metrics;
    private final GasStationProperties settings;
    private final ClientRateLimiter grants;
    // one send at a time from the faucet, so the nonce recorded at its start is the one it is signed with
    private final ReentrantLock faucetLock = new ReentrantLock();

    EnabledGasStation(FaucetChain chain, GrantLedger ledger, GasGrantTable table, GrantRecovery recovery,
                      LiveAttempts live, FaucetHealth faucetHealth, ReceiptWait receipts, GasStationMetrics metrics,
                      GasStationProperties settings, ClientRateLimiter grants) {
        this.chain = chain;
        this.ledger = ledger;
        this.table = table;
        this.recovery = recovery;
        this.live = live;
        this.faucetHealth = faucetHealth;
        this.receipts = receipts;
        this.metrics = metrics;
        this.settings = settings;
        this.grants = grants;
    }

    String faucet() {
        return chain.faucet();
    }

    BigInteger grantWei() {
        return settings.grantWei();
    }

    GrantRecovery recovery() {
        return recovery;
    }

    FaucetHealth faucetHealth() {
        return faucetHealth;
    }

    @Override
    public GasStationReply counted(GasStationReply reply) {
        return metrics.counted(reply);
    }

    @Override
    public GasStationReply request(String address) {
        return counted(decide(address));
    }

    private GasStationReply decide(String address) {
        String wallet;
        try {
            wallet = Hex.normalizeAddress(address);
        } catch (IllegalArgumentException e) {
            return GasStationReply.invalidAddress(e.getMessage());
        }
        if (wallet.equals(chain.faucet())) {
            return GasStationReply.invalidAddress("that is the gas station's own faucet");
        }
        Optional<GasGrantRow> known = table.find(wallet);
        if (known.isPresent() && known.get().status() == GasGrantRow.Status.GRANTED) {
            return GasStationReply.alreadyGranted(known.get().txHash());
        }
        try {
            if (chain.holdsContractCode(wallet)) {
                return GasStationReply.notAWallet();
            }
            BigInteger usdc = chain.usdcBalance(wallet);
            if (usdc.compareTo(settings.minUsdc()) < 0) {
                return GasStationReply.insufficientUsdc(usdc, settings.minUsdc());
            }
            Optional<String> failure = chain.transferFailure(wallet, settings.grantWei());
            if (failure.isPresent()) {
                return GasStationReply.transferWouldFail(abbreviated(failure.get()));
            }
            FaucetFunds funds = faucetHealth.read();
            if (!funds.canPay()) {
                return GasStationReply.faucetEmpty(settings.retryAfter());
            }
        } catch (RpcException e) {
            log.warn("gas station: the chain could not be read for {}: {}", wallet, e.getMessage());
            return GasStationReply.rpcUnavailable(null, settings.retryAfter());
        }
        // a spent budget refuses before anything is recorded; the token itself is taken once the
        // wallet's grant is reserved, so a request that loses the reservation to another spends none
        Duration wait = grants.untilNext(ALL_WALLETS);
        if (!wait.isZero()) {
            return GasStationReply.grantLimitReached(wait);
        }
        String attemptId = UUID.randomUUID().toString();
        live.add(attemptId);
        try {
            GasStationReply refusal = reserve(wallet, attemptId);
            return refusal != null ? refusal : sendWithinBudget(wallet, attemptId);
        } finally {
            live.remove(attemptId);
        }
    }

    private GasStationReply sendWithinBudget(String wallet, String attemptId) {
        Duration wait = grants.acquire(ALL_WALLETS);
        if (!wait.isZero()) {
            // another wallet's request took the last token since the look above
            ledger.failBeforeSend(wallet, attemptId, "the budget of all grants was spent");
            return GasStationReply.grantLimitReached(wait);
        }
        GasStationReply reply = send(wallet, attemptId);
        if (!reply.mayHavePaid()) {
            grants.giveBack(ALL_WALLETS);
        }
        return reply;
    }

    /** Null when the grant is reserved for this attempt, else the refusal to answer. */
    private GasStationReply reserve(String wallet, String attemptId) {
        for (int round = 0; ; round++) {
            try {
                ledger.reserve(wallet, attemptId, settings.grantWei());
                return null;
            } catch (GasGrantRefusedException refused) {
                if (refused.reason() == GasGrantRefusal.ALREADY_GRANTED) {
                    return GasStationReply.alreadyGranted(refused.txHash());
                }
                if (refused.reason() != GasGrantRefusal.GRANT_PENDING) {
                    throw refused;
                }
                // the pending attempt may belong to a request that is gone: settle it from the chain first
                if (round == 0 && recovery.resolve(wallet)) {
                    continue;
                }
                return GasStationReply.grantPending(refused.txHash(), settings.retryAfter());
            } catch (ConcurrencyException raced) {
                return GasStationReply.grantPending(null, settings.retryAfter());
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
                ledger.failBeforeSend(wallet, attemptId, "the faucet's nonce could not be read");
                return GasStationReply.rpcUnavailable(null, settings.retryAfter());
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
                yield refused.reason().toLowerCase(Locale.ROOT).contains("insufficient funds")
                        ? GasStationReply.faucetEmpty(settings.retryAfter())
                        : GasStationReply.transferRefused(settings.retryAfter());
            }
            case SendResult.TransientFailure failure when failure.txHash() == null -> {
                ledger.fail(wallet, attemptId, GasGrantFailure.NOT_SENT, null, failure.reason());
                yield GasStationReply.rpcUnavailable(null, settings.retryAfter());
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
        return switch (receipts.await(txHash)) {
            case ReceiptWait.Mined mined -> mined.receipt().isStatusOK()
                    ? confirmed(wallet, attemptId, txHash, mined.receipt().getBlockNumber().longValueExact())
                    : reverted(wallet, attemptId, txHash);
            case ReceiptWait.Missing missing -> {
                log.warn("gas station: transfer {} to {} has no receipt after {} ({}); it stays pending",
                        txHash, wallet, receipts.timeout(),
                        missing.nodeReachable() ? "not mined yet" : "node unreachable");
                yield missing.nodeReachable() ? GasStationReply.transferUnconfirmed(txHash, settings.retryAfter())
                        : GasStationReply.rpcUnavailable(txHash, settings.retryAfter());
            }
        };
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

    private static String abbreviated(String nodeMessage) {
        return nodeMessage.length() <= 160 ? nodeMessage : nodeMessage.substring(0, 160) + "…";
    }

    private GasStationReply reverted(String wallet, String attemptId, String txHash) {
        ledger.fail(wallet, attemptId, GasGrantFailure.REVERTED, txHash, "the transfer was mined and reverted");
        return GasStationReply.transferReverted(txHash);
    }
}
