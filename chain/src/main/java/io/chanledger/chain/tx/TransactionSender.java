package io.chanledger.chain.tx;

import io.chanledger.chain.rpc.BlockHeader;
import io.chanledger.chain.rpc.EthApi;
import io.chanledger.chain.rpc.RpcException;
import java.math.BigInteger;
import java.util.Locale;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.web3j.crypto.Credentials;
import org.web3j.crypto.Hash;
import org.web3j.crypto.RawTransaction;
import org.web3j.crypto.TransactionEncoder;
import org.web3j.protocol.core.methods.response.TransactionReceipt;
import org.web3j.utils.Numeric;

/**
 * Signs and sends EIP-1559 transactions from one account, one at a time.
 *
 * <p>The nonce is a local counter, seeded from the node's pending transaction count and re-read
 * whenever the node reports a nonce problem or a send ended in doubt. Fees come from the node:
 * the suggested tip (at least the configured floor) and twice the latest base fee on top, so the
 * transaction survives a few blocks of rising base fee. A send waits for the receipt up to the
 * timeout and reports what is known, never more: see {@link SendResult}.
 *
 * <p>The key stays inside the {@link Credentials}; only the account's address is ever logged.
 */
public final class TransactionSender {

    private static final Logger log = LoggerFactory.getLogger(TransactionSender.class);

    private final EthApi eth;
    private final Credentials credentials;
    private final long chainId;
    private final SenderSettings settings;
    private final RevertReasons reverts;
    private BigInteger nextNonce;

    public TransactionSender(EthApi eth, Credentials credentials, long chainId, SenderSettings settings,
                             RevertReasons reverts) {
        this.eth = eth;
        this.credentials = credentials;
        this.chainId = chainId;
        this.settings = settings;
        this.reverts = reverts;
    }

    /** The sending account, lowercase 0x-hex. */
    public String address() {
        return credentials.getAddress().toLowerCase(Locale.ROOT);
    }

    /** Simulates the request from this account at the latest block. */
    public CallResult simulate(TransactionRequest request) {
        return call(address(), request.to(), request.data(), request.value());
    }

    /** {@code eth_call} at the latest block from any account. */
    public CallResult call(String from, String to, String data, BigInteger value) {
        try {
            return CallResult.returned(eth.call(from, to, data, value, "latest"));
        } catch (RpcException e) {
            if (RevertReasons.isRevert(e)) {
                return CallResult.reverted(reverts.describe(e), RevertReasons.revertData(e));
            }
            throw e;
        }
    }

    /** Forgets the local nonce; the next send reads the node's pending count again. */
    public synchronized void resyncNonce() {
        nextNonce = null;
    }

    public SendResult send(TransactionRequest request) {
        return send(request, BroadcastJournal.NONE);
    }

    /** {@link #send(TransactionRequest)}, telling {@code journal} of the signed transaction before it is broadcast. */
    public synchronized SendResult send(TransactionRequest request, BroadcastJournal journal) {
        BigInteger gasLimit;
        BigInteger[] fees;
        try {
            gasLimit = request.gasLimit() != null ? request.gasLimit() : estimate(request);
            fees = fees();
            if (nextNonce == null) {
                nextNonce = eth.transactionCount(address(), "pending");
            }
        } catch (WouldRevert e) {
            return new SendResult.Refused("the call would revert", e.reason);
        } catch (RpcException e) {
            return e.isTransient() ? new SendResult.TransientFailure(e.getMessage(), null)
                    : new SendResult.Refused(e.getMessage(), null);
        }
        Broadcast broadcast = broadcast(request, gasLimit, fees, true, journal);
        if (broadcast.outcome != null) {
            return broadcast.outcome;
        }
        return awaitReceipt(request, broadcast.txHash, broadcast.nonce);
    }

    private record Broadcast(String txHash, BigInteger nonce, SendResult outcome) {
    }

    private Broadcast broadcast(TransactionRequest request, BigInteger gasLimit, BigInteger[] fees, boolean mayResync,
                                BroadcastJournal journal) {
        BigInteger nonce = nextNonce;
        RawTransaction raw = RawTransaction.createTransaction(chainId, nonce, gasLimit, request.to(), request.value(),
                request.data(), fees[0], fees[1]);
        String signed = Numeric.toHexString(TransactionEncoder.signMessage(raw, credentials));
        String txHash = Hash.sha3(signed).toLowerCase(Locale.ROOT);
        journal.signed(txHash, nonce, signed);
        try {
            eth.sendRawTransaction(signed);
        } catch (RpcException e) {
            // The node may have taken it although the answer was lost (and a retry then hears "already
            // known" or "nonce too low"): a transaction the node knows is sent, and is never signed anew.
            Optional<Boolean> known = knownToNode(txHash);
            if (known.isEmpty()) {
                nextNonce = null;
                return new Broadcast(null, null, new SendResult.TransientFailure(
                        "sent, but whether the node took it is unknown: " + e.getMessage(), txHash));
            }
            if (known.get()) {
                log.debug("transaction {} from {} reached the node despite: {}", txHash, address(), e.getMessage());
            } else if (mayResync && isNonceProblem(e.getMessage().toLowerCase(Locale.ROOT))) {
                log.info("nonce {} of {} refused ({}); reading the account's nonce again", nonce, address(),
                        e.getMessage());
                try {
                    nextNonce = eth.transactionCount(address(), "pending");
                } catch (RpcException unreachable) {
                    nextNonce = null;
                    return new Broadcast(null, null, new SendResult.TransientFailure(unreachable.getMessage(), null));
                }
                return broadcast(request, gasLimit, fees, false, journal);
            } else if (e.isTransient()) {
                nextNonce = null;
                return new Broadcast(null, null, new SendResult.TransientFailure(e.getMessage(), txHash));
            } else {
                nextNonce = null;
                return new Broadcast(null, null, new SendResult.Refused(e.getMessage(), null));
            }
        }
        nextNonce = nonce.add(BigInteger.ONE);
        log.info("sent transaction {} from {} with nonce {} to {}", txHash, address(), nonce, request.to());
        return new Broadcast(txHash, nonce, null);
    }

    /** A transaction signed by {@link #signAt}, not sent yet: its hash, nonce and bytes. */
    public record Signed(String txHash, BigInteger nonce, String rawTransaction) {
    }

    /** How a first broadcast by {@link #submit} ended. */
    public enum Submission {
        /** The node has the transaction. */
        ACCEPTED,
        /** The node refused it for good and does not have it; its nonce is unused. */
        REFUSED,
        /** Whether the node has it is unknown (the node could not be asked). */
        UNKNOWN
    }

    /** The account's transaction count including the node's pending ones. */
    public BigInteger pendingNonce() {
        return eth.transactionCount(address(), "pending");
    }

    /**
     * Signs {@code request} at {@code nonce}, which the caller took (from a database shared by
     * several processes of one account, say), and sends nothing: the caller stores the transaction
     * first and then {@link #submit}s it. Gas is estimated as for {@link #send}, so a call that would
     * revert is refused ({@link NotSigned}) rather than signed.
     */
    public Signed signAt(TransactionRequest request, BigInteger nonce) throws NotSigned {
        BigInteger gasLimit;
        BigInteger[] fees;
        try {
            gasLimit = request.gasLimit() != null ? request.gasLimit() : estimate(request);
            fees = fees();
        } catch (WouldRevert e) {
            throw new NotSigned(new SendResult.Refused("the call would revert", e.reason));
        } catch (RpcException e) {
            throw new NotSigned(e.isTransient() ? new SendResult.TransientFailure(e.getMessage(), null)
                    : new SendResult.Refused(e.getMessage(), null));
        }
        RawTransaction raw = RawTransaction.createTransaction(chainId, nonce, gasLimit, request.to(), request.value(),
                request.data(), fees[0], fees[1]);
        String hex = Numeric.toHexString(TransactionEncoder.signMessage(raw, credentials));
        return new Signed(Hash.sha3(hex).toLowerCase(Locale.ROOT), nonce, hex);
    }

    /** Nothing was signed: the call would revert ({@link SendResult.Refused}) or the node could not be asked. */
    public static final class NotSigned extends Exception {
        private final SendResult outcome;

        NotSigned(SendResult outcome) {
            super(outcome.toString(), null, false, false);
            this.outcome = outcome;
        }

        /** A {@link SendResult.Refused} (with the revert reason, when there is one) or a {@link SendResult.TransientFailure}. */
        public SendResult outcome() {
            return outcome;
        }
    }

    /** Hands a transaction {@link #signAt signed} here to the node for the first time. */
    public Submission submit(Signed transaction) {
        try {
            eth.sendRawTransaction(transaction.rawTransaction());
            log.info("sent transaction {} from {} with nonce {}", transaction.txHash(), address(), transaction.nonce());
            return Submission.ACCEPTED;
        } catch (RpcException e) {
            Optional<Boolean> known = knownToNode(transaction.txHash());
            if (known.isEmpty()) {
                return Submission.UNKNOWN;
            }
            if (!known.get()) {
                log.info("transaction {} from {} with nonce {} refused: {}", transaction.txHash(), address(),
                        transaction.nonce(), e.getMessage());
            }
            return known.get() ? Submission.ACCEPTED : Submission.REFUSED;
        }
    }

    /**
     * Waits for the receipt of a transaction sent by {@link #submit} or {@link #rebroadcast}, as
     * {@link #send} does: {@link SendResult.Mined}, {@link SendResult.Reverted} or, after the
     * configured timeout, {@link SendResult.NotMined}.
     */
    public SendResult awaitReceipt(TransactionRequest request, Signed transaction) {
        return awaitReceipt(request, transaction.txHash(), transaction.nonce());
    }

    /**
     * Hands a transaction signed earlier to the node again (one a {@link BroadcastJournal} kept):
     * the same bytes and nonce, so it lands at most once. False when the node refused it.
     */
    public boolean rebroadcast(String rawTransaction) {
        String txHash = Hash.sha3(rawTransaction).toLowerCase(Locale.ROOT);
        try {
            eth.sendRawTransaction(rawTransaction);
            log.info("sent transaction {} from {} again", txHash, address());
            return true;
        } catch (RpcException e) {
            return knownToNode(txHash).orElse(false);
        }
    }

    private SendResult awaitReceipt(TransactionRequest request, String txHash, BigInteger nonce) {
        long deadline = System.nanoTime() + settings.receiptTimeout().toNanos();
        while (true) {
            try {
                Optional<TransactionReceipt> receipt = eth.receipt(txHash);
                if (receipt.isPresent()) {
                    return outcome(request, receipt.get(), nonce);
                }
            } catch (RpcException e) {
                log.debug("receipt of {} not readable yet: {}", txHash, e.getMessage());
            }
            if (System.nanoTime() >= deadline) {
                if (!settings.receiptTimeout().isZero()) { // a zero wait is a caller that waits for the receipt itself
                    log.warn("transaction {} from {} (nonce {}) has no receipt after {}", txHash, address(), nonce,
                            settings.receiptTimeout());
                }
                return new SendResult.NotMined(txHash, nonce);
            }
            try {
                Thread.sleep(settings.receiptPollInterval().toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return new SendResult.NotMined(txHash, nonce);
            }
        }
    }

    private SendResult outcome(TransactionRequest request, TransactionReceipt receipt, BigInteger nonce) {
        long block = receipt.getBlockNumber().longValueExact();
        if (receipt.isStatusOK()) {
            return new SendResult.Mined(receipt.getTransactionHash(), nonce, block, receipt.getBlockHash(),
                    receipt.getGasUsed(), receipt.getEffectiveGasPrice() == null ? null
                    : Numeric.decodeQuantity(receipt.getEffectiveGasPrice()));
        }
        return new SendResult.Reverted(receipt.getTransactionHash(), nonce, block, receipt.getGasUsed(),
                replayedRevert(request, block));
    }

    /** The reason a mined transaction reverted, by replaying its call on the state of its block. */
    private String replayedRevert(TransactionRequest request, long block) {
        try {
            eth.call(address(), request.to(), request.data(), request.value(),
                    Numeric.toHexStringWithPrefix(BigInteger.valueOf(block)));
            return null;
        } catch (RpcException e) {
            return RevertReasons.isRevert(e) ? reverts.describe(e) : null;
        }
    }

    private BigInteger estimate(TransactionRequest request) {
        try {
            BigInteger estimate = eth.estimateGas(address(), request.to(), request.data(), request.value());
            return estimate.multiply(BigInteger.valueOf(100L + settings.gasHeadroomPercent())).divide(BigInteger.valueOf(100));
        } catch (RpcException e) {
            if (RevertReasons.isRevert(e)) {
                throw new WouldRevert(reverts.describe(e));
            }
            throw e;
        }
    }

    /** [maxPriorityFeePerGas, maxFeePerGas]. */
    private BigInteger[] fees() {
        BigInteger tip = eth.maxPriorityFeePerGas().max(settings.minPriorityFee());
        BigInteger baseFee = eth.block("latest").map(BlockHeader::baseFeePerGas).orElse(null);
        BigInteger maxFee = (baseFee == null ? BigInteger.ZERO : baseFee.shiftLeft(1)).add(tip);
        if (settings.maxFeeCap() != null && maxFee.compareTo(settings.maxFeeCap()) > 0) {
            maxFee = settings.maxFeeCap();
            tip = tip.min(maxFee);
        }
        return new BigInteger[] {tip, maxFee};
    }

    /** Whether the node has the transaction (pending or mined); empty when the node cannot be asked. */
    private Optional<Boolean> knownToNode(String txHash) {
        try {
            return Optional.of(eth.transaction(txHash).isPresent());
        } catch (RpcException e) {
            return Optional.empty();
        }
    }

    private static boolean isNonceProblem(String message) {
        return message.contains("nonce too low") || message.contains("nonce too high")
                || message.contains("replacement transaction underpriced") || message.contains("invalid nonce");
    }

    private static final class WouldRevert extends RuntimeException {
        private final String reason;

        WouldRevert(String reason) {
            super(reason, null, false, false);
            this.reason = reason;
        }
    }
}
