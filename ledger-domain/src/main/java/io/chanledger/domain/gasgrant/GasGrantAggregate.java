package io.chanledger.domain.gasgrant;

import static org.axonframework.modelling.command.AggregateLifecycle.apply;

import io.chanledger.domain.eip712.Hex;
import java.math.BigInteger;
import java.util.Locale;
import org.axonframework.commandhandling.CommandHandler;
import org.axonframework.eventsourcing.EventSourcingHandler;
import org.axonframework.modelling.command.AggregateCreationPolicy;
import org.axonframework.modelling.command.AggregateIdentifier;
import org.axonframework.modelling.command.CreationPolicy;

/**
 * The one gas grant of a wallet, identified by the wallet's lowercase address.
 *
 * <p>An attempt moves RESERVED → SEND_STARTED (faucet nonce and block recorded before signing) →
 * BROADCAST (transaction hash known) → GRANTED, or back to available through a failure. While
 * an attempt is pending no other attempt can start, so concurrent requests yield one transfer.
 * Only a confirmed transfer uses the grant up; a failure is accepted only where the chain can
 * prove it: once a hash is known, only a revert, a replacement or a drop releases the grant. A
 * transfer mined after its attempt was released as not sent or dropped still uses the grant up.
 */
class GasGrantAggregate {

    enum Status { AVAILABLE, RESERVED, SEND_STARTED, BROADCAST, GRANTED }

    @AggregateIdentifier
    private String wallet;
    private Status status = Status.AVAILABLE;
    private String attemptId;
    private BigInteger amount;
    private String txHash;
    private String lastFailedAttempt;
    private GasGrantFailure lastFailure;

    GasGrantAggregate() {
        // required by Axon to source the aggregate from its events
    }

    @CommandHandler
    @CreationPolicy(AggregateCreationPolicy.CREATE_IF_MISSING)
    void handle(ReserveGasGrant command) {
        if (!isLowercaseAddress(command.wallet()) || isBlank(command.attemptId()) || command.requestedAt() == null
                || command.amount() == null || command.amount().signum() <= 0) {
            throw new GasGrantRefusedException(GasGrantRefusal.INVALID_COMMAND,
                    "a reservation needs a lowercase wallet address, an attempt id, a positive amount and a time");
        }
        if (status == Status.GRANTED) {
            throw new GasGrantRefusedException(GasGrantRefusal.ALREADY_GRANTED,
                    "wallet " + wallet + " already received its grant in " + txHash, txHash, attemptId);
        }
        if (isPending()) {
            if (attemptId.equals(command.attemptId())) {
                return; // the same reservation again
            }
            throw new GasGrantRefusedException(GasGrantRefusal.GRANT_PENDING,
                    "a grant to wallet " + wallet + " is in progress", txHash, attemptId);
        }
        apply(new GasGrantReserved(command.wallet(), command.attemptId(), command.amount(), command.requestedAt()));
    }

    @CommandHandler
    void handle(StartGasGrantSend command) {
        requireCurrentAttempt(command.attemptId());
        if (!isLowercaseAddress(command.faucet()) || command.faucetNonce() < 0 || command.fromBlock() < 0) {
            throw new GasGrantRefusedException(GasGrantRefusal.INVALID_COMMAND,
                    "a send needs the faucet's lowercase address, its nonce and a block number");
        }
        if (status != Status.RESERVED) {
            throw new GasGrantRefusedException(GasGrantRefusal.OUT_OF_ORDER,
                    "attempt " + attemptId + " has already started its send");
        }
        apply(new GasGrantSendStarted(wallet, attemptId, command.faucet(), command.faucetNonce(), command.fromBlock()));
    }

    @CommandHandler
    void handle(RecordGasGrantBroadcast command) {
        requireCurrentAttempt(command.attemptId());
        if (!isTxHash(command.txHash())) {
            throw new GasGrantRefusedException(GasGrantRefusal.INVALID_COMMAND, "a transaction hash is 0x and 64 hex digits");
        }
        if (status == Status.BROADCAST) {
            if (txHash.equals(command.txHash())) {
                return;
            }
            throw new GasGrantRefusedException(GasGrantRefusal.CONFLICTING_TRANSACTION,
                    "attempt " + attemptId + " already broadcast " + txHash, txHash, attemptId);
        }
        if (status != Status.SEND_STARTED) {
            throw new GasGrantRefusedException(GasGrantRefusal.OUT_OF_ORDER,
                    "attempt " + attemptId + " has not recorded the start of its send");
        }
        apply(new GasGrantBroadcast(wallet, attemptId, command.txHash(), command.txNonce()));
    }

    @CommandHandler
    void handle(ConfirmGasGrant command) {
        if (status == Status.GRANTED) {
            if (txHash.equals(command.txHash())) {
                return; // confirmed before, by the sender or by recovery
            }
            throw new GasGrantRefusedException(GasGrantRefusal.CONFLICTING_TRANSACTION,
                    "wallet " + wallet + " was granted in " + txHash + ", not in " + command.txHash(), txHash, attemptId);
        }
        if (!isTxHash(command.txHash()) || command.blockNumber() < 0 || command.confirmedAt() == null) {
            throw new GasGrantRefusedException(GasGrantRefusal.INVALID_COMMAND,
                    "a confirmation needs the transaction hash, its block and a time");
        }
        if (status == Status.AVAILABLE && command.attemptId() != null && command.attemptId().equals(lastFailedAttempt)
                && (lastFailure == GasGrantFailure.NOT_SENT || lastFailure == GasGrantFailure.DROPPED)) {
            // "not sent" and "dropped" were inferred from what the chain did not show; a mined
            // transfer of that attempt proves them wrong, and the grant is used up after all
            apply(new GasGranted(wallet, command.attemptId(), command.txHash(), amount, command.blockNumber(),
                    command.confirmedAt()));
            return;
        }
        requireCurrentAttempt(command.attemptId());
        if (status == Status.RESERVED) {
            throw new GasGrantRefusedException(GasGrantRefusal.OUT_OF_ORDER,
                    "attempt " + attemptId + " never started a send, so no transfer of it can be confirmed");
        }
        if (status == Status.BROADCAST && !txHash.equals(command.txHash())) {
            throw new GasGrantRefusedException(GasGrantRefusal.CONFLICTING_TRANSACTION,
                    "attempt " + attemptId + " broadcast " + txHash + ", not " + command.txHash(), txHash, attemptId);
        }
        apply(new GasGranted(wallet, attemptId, command.txHash(), amount, command.blockNumber(), command.confirmedAt()));
    }

    @CommandHandler
    void handle(FailGasGrant command) {
        if (status == Status.GRANTED) {
            throw new GasGrantRefusedException(GasGrantRefusal.ALREADY_GRANTED,
                    "wallet " + wallet + " was granted in " + txHash + "; a confirmed transfer is never undone",
                    txHash, attemptId);
        }
        if (command.attemptId() != null && command.attemptId().equals(lastFailedAttempt) && !isPending()) {
            return; // this attempt's failure is recorded already
        }
        requireCurrentAttempt(command.attemptId());
        if (command.reason() == null || command.failedAt() == null) {
            throw new GasGrantRefusedException(GasGrantRefusal.INVALID_COMMAND, "a failure needs a reason and a time");
        }
        if (!provable(command)) {
            throw new GasGrantRefusedException(GasGrantRefusal.FAILURE_NOT_PROVEN,
                    "'" + command.reason().code() + "' cannot release attempt " + attemptId + " in state " + status
                            + (txHash == null ? "" : " (transaction " + txHash + ")"), txHash, attemptId);
        }
        String about = txHash != null ? txHash : command.txHash();
        apply(new GasGrantFailed(wallet, attemptId, command.reason(), about, command.detail(), command.failedAt()));
    }

    /**
     * Whether the failure's reason can be true in the current state, and was judged on it: a
     * failure judged before the send started (from a read model behind the ledger, say) says
     * nothing about an attempt whose send has started since, nor the other way round.
     */
    private boolean provable(FailGasGrant command) {
        if (command.sendStarted() == (status == Status.RESERVED)) {
            return false;
        }
        return switch (command.reason()) {
            case NOT_SENT -> status == Status.RESERVED || status == Status.SEND_STARTED;
            case REVERTED -> (status == Status.SEND_STARTED && isTxHash(command.txHash()))
                    || (status == Status.BROADCAST && (command.txHash() == null || txHash.equals(command.txHash())));
            case REPLACED, DROPPED -> status == Status.BROADCAST;
        };
    }

    @EventSourcingHandler
    void on(GasGrantReserved event) {
        wallet = event.wallet();
        status = Status.RESERVED;
        attemptId = event.attemptId();
        amount = event.amount();
        txHash = null;
    }

    @EventSourcingHandler
    void on(GasGrantSendStarted event) {
        status = Status.SEND_STARTED;
    }

    @EventSourcingHandler
    void on(GasGrantBroadcast event) {
        status = Status.BROADCAST;
        txHash = event.txHash();
    }

    @EventSourcingHandler
    void on(GasGranted event) {
        status = Status.GRANTED;
        attemptId = event.attemptId();
        txHash = event.txHash();
    }

    @EventSourcingHandler
    void on(GasGrantFailed event) {
        status = Status.AVAILABLE;
        lastFailedAttempt = event.attemptId();
        lastFailure = event.reason();
        attemptId = null;
        txHash = null;
    }

    private boolean isPending() {
        return status == Status.RESERVED || status == Status.SEND_STARTED || status == Status.BROADCAST;
    }

    private void requireCurrentAttempt(String commandAttempt) {
        if (!isPending() || !attemptId.equals(commandAttempt)) {
            throw new GasGrantRefusedException(GasGrantRefusal.ATTEMPT_NOT_PENDING,
                    "attempt " + commandAttempt + " is not the pending attempt of wallet " + wallet, txHash, attemptId);
        }
    }

    private static boolean isLowercaseAddress(String text) {
        return Hex.isAddress(text) && text.equals(text.toLowerCase(Locale.ROOT));
    }

    private static boolean isTxHash(String text) {
        return Hex.isBytes32(text) && text.equals(text.toLowerCase(Locale.ROOT));
    }

    private static boolean isBlank(String text) {
        return text == null || text.isBlank();
    }
}
