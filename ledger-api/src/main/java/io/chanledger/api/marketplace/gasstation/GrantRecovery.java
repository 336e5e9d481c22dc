package io.chanledger.api.marketplace.gasstation;

import io.chanledger.chain.rpc.RpcException;
import io.chanledger.domain.gasgrant.GasGrantFailure;
import io.chanledger.projections.gasgrant.GasGrantRow;
import io.chanledger.projections.gasgrant.GasGrantTable;
import java.time.Clock;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.web3j.protocol.core.methods.response.TransactionReceipt;

/**
 * Settles attempts whose request is gone (ended without a receipt, or died with its process) from
 * what the chain shows, so that a grant is neither paid twice nor lost:
 *
 * <ul>
 * <li>A receipt of the recorded transfer settles the attempt at any time: granted, or reverted.</li>
 * <li>Anything else waits until the attempt is {@code staleAfter} old, so that no request still
 *     sending it is overtaken. Then: no send started → not sent. A recorded transfer the node still
 *     holds → wait; its nonce taken by another transaction → replaced; unknown with its nonce
 *     unused → dropped.</li>
 * <li>No hash recorded (or none the node knows, of unknown nonce): when the faucet has no
 *     transaction, mined or pooled, at the nonce recorded at the send's start or later, nothing
 *     was sent. Otherwise the blocks since the send's start are searched for the faucet's transfer
 *     to the wallet; found, its receipt settles the attempt; not found while nothing of the faucet
 *     is pending, nothing was sent.</li>
 * </ul>
 */
class GrantRecovery {

    private static final Logger log = LoggerFactory.getLogger(GrantRecovery.class);
    private static final int BATCH = 100;

    private final FaucetChain chain;
    private final GrantLedger ledger;
    private final GasGrantTable table;
    private final LiveAttempts live;
    private final GasStationMetrics metrics;
    private final Clock clock;
    private final Duration staleAfter;
    private final int maxScanBlocks;

    GrantRecovery(FaucetChain chain, GrantLedger ledger, GasGrantTable table, LiveAttempts live,
                  GasStationMetrics metrics, Clock clock, Duration staleAfter, int maxScanBlocks) {
        this.chain = chain;
        this.ledger = ledger;
        this.table = table;
        this.live = live;
        this.metrics = metrics;
        this.clock = clock;
        this.staleAfter = staleAfter;
        this.maxScanBlocks = maxScanBlocks;
    }

    /** Settles the wallet's pending attempt if the chain allows; true when it was granted or released. */
    boolean resolve(String wallet) {
        Optional<GasGrantRow> row = table.find(wallet).filter(GasGrantRow::pending);
        if (row.isEmpty()) {
            return false;
        }
        try {
            return resolve(row.get());
        } catch (RpcException e) {
            log.info("gas station: pending grant of {} not settled, the chain could not be read: {}", wallet,
                    e.getMessage());
            return false;
        }
    }

    /** One pass over the pending attempts; returns how many were settled. */
    int resolvePending() {
        int settled = 0;
        for (GasGrantRow row : table.pending(BATCH)) {
            try {
                if (resolve(row)) {
                    settled++;
                }
            } catch (RuntimeException e) {
                log.warn("gas station: pending grant of {} (attempt {}) not settled: {}", row.wallet(), row.attemptId(),
                        e.toString());
            }
        }
        return settled;
    }

    boolean resolve(GasGrantRow row) {
        if (!row.pending() || live.contains(row.attemptId())) {
            return false;
        }
        if (row.txHash() != null) {
            Optional<TransactionReceipt> receipt = chain.receipt(row.txHash());
            if (receipt.isPresent()) {
                return settle(row, receipt.get());
            }
        }
        if (row.reservedAt().plus(staleAfter).isAfter(clock.instant())) {
            return false;
        }
        if (row.status() == GasGrantRow.Status.RESERVED) {
            return ledger.failBeforeSend(row.wallet(), row.attemptId(), "the request ended before the send started");
        }
        String faucet = row.faucet();
        long latest = chain.nonce(faucet, "latest");
        long pending = chain.nonce(faucet, "pending");
        if (row.txHash() != null) {
            // read after the nonces, so that a transfer mined in between cannot look replaced
            Optional<TransactionReceipt> receipt = chain.receipt(row.txHash());
            if (receipt.isPresent()) {
                return settle(row, receipt.get());
            }
            if (chain.known(row.txHash())) {
                return false;
            }
            if (row.txNonce() != null) {
                return latest > row.txNonce()
                        ? ledger.fail(row.wallet(), row.attemptId(), GasGrantFailure.REPLACED, row.txHash(),
                        "nonce " + row.txNonce() + " of the faucet was used by another transaction")
                        : ledger.fail(row.wallet(), row.attemptId(), GasGrantFailure.DROPPED, row.txHash(),
                        "the node no longer knows the transfer and nonce " + row.txNonce() + " is unused");
            }
        }
        if (pending <= row.faucetNonce()) {
            return nothingSent(row, "the faucet has no transaction with nonce " + row.faucetNonce() + " or later");
        }
        long head = chain.blockNumber();
        long from = row.fromBlock() + 1;
        long to = Math.min(head, row.fromBlock() + maxScanBlocks);
        Optional<String> found = chain.findTransfer(faucet, row.wallet(), from, to);
        if (found.isPresent()) {
            Optional<TransactionReceipt> receipt = chain.receipt(found.get());
            return receipt.isPresent() && settle(row, receipt.get());
        }
        if (to < head) {
            log.warn("gas station: no transfer from {} to {} in blocks {}..{}, but the search stops there;"
                    + " attempt {} stays pending", faucet, row.wallet(), from, to, row.attemptId());
            return false;
        }
        if (latest < pending) {
            return false; // faucet transactions are in flight; one of them may be this attempt's
        }
        return nothingSent(row, "no transfer from the faucet to the wallet since block " + row.fromBlock()
                + " and none pending");
    }

    private boolean nothingSent(GasGrantRow row, String detail) {
        return row.txHash() == null
                ? ledger.fail(row.wallet(), row.attemptId(), GasGrantFailure.NOT_SENT, null, detail)
                : ledger.fail(row.wallet(), row.attemptId(), GasGrantFailure.DROPPED, row.txHash(), detail);
    }

    private boolean settle(GasGrantRow row, TransactionReceipt receipt) {
        String txHash = receipt.getTransactionHash().toLowerCase(Locale.ROOT);
        if (!receipt.isStatusOK()) {
            return ledger.fail(row.wallet(), row.attemptId(), GasGrantFailure.REVERTED, txHash,
                    "mined in block " + receipt.getBlockNumber() + " and reverted");
        }
        boolean confirmed = ledger.confirm(row.wallet(), row.attemptId(), txHash,
                receipt.getBlockNumber().longValueExact());
        if (confirmed) {
            metrics.granted(true);
            log.info("gas station: transfer {} to {} confirmed by recovery", txHash, row.wallet());
        }
        return confirmed;
    }
}
