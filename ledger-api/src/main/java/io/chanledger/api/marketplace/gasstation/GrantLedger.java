package io.chanledger.api.marketplace.gasstation;

import io.chanledger.domain.gasgrant.ConfirmGasGrant;
import io.chanledger.domain.gasgrant.FailGasGrant;
import io.chanledger.domain.gasgrant.GasGrantFailure;
import io.chanledger.domain.gasgrant.GasGrantRefusedException;
import io.chanledger.domain.gasgrant.RecordGasGrantBroadcast;
import io.chanledger.domain.gasgrant.ReserveGasGrant;
import io.chanledger.domain.gasgrant.StartGasGrantSend;
import java.math.BigInteger;
import java.time.Clock;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The GasGrant commands of the station and of recovery. Reservation and send start throw their
 * refusals (the caller decides); the later steps report whether they were recorded, since the
 * sender and recovery may both settle one attempt and the second one then finds it settled.
 */
class GrantLedger {

    private static final Logger log = LoggerFactory.getLogger(GrantLedger.class);

    private final CommandGateway commands;
    private final Clock clock;

    GrantLedger(CommandGateway commands, Clock clock) {
        this.commands = commands;
        this.clock = clock;
    }

    void reserve(String wallet, String attemptId, BigInteger amount) {
        commands.sendAndWait(new ReserveGasGrant(wallet, attemptId, amount, clock.instant()));
    }

    void startSend(String wallet, String attemptId, String faucet, long faucetNonce, long fromBlock) {
        commands.sendAndWait(new StartGasGrantSend(wallet, attemptId, faucet, faucetNonce, fromBlock));
    }

    boolean broadcast(String wallet, String attemptId, String txHash, Long txNonce) {
        return record(new RecordGasGrantBroadcast(wallet, attemptId, txHash, txNonce), wallet, attemptId);
    }

    boolean confirm(String wallet, String attemptId, String txHash, long blockNumber) {
        return record(new ConfirmGasGrant(wallet, attemptId, txHash, blockNumber, clock.instant()), wallet, attemptId);
    }

    /** Releases an attempt whose send had started, for the reason the chain shows. */
    boolean fail(String wallet, String attemptId, GasGrantFailure reason, String txHash, String detail) {
        return record(new FailGasGrant(wallet, attemptId, reason, txHash, detail, clock.instant(), true), wallet,
                attemptId);
    }

    /**
     * Releases an attempt that ended before its send started. Refused if the ledger has seen the
     * send start since (the caller may have read the attempt from a read model behind it).
     */
    boolean failBeforeSend(String wallet, String attemptId, String detail) {
        return record(new FailGasGrant(wallet, attemptId, GasGrantFailure.NOT_SENT, null, detail, clock.instant(),
                false), wallet, attemptId);
    }

    private boolean record(Object command, String wallet, String attemptId) {
        try {
            commands.sendAndWait(command);
            return true;
        } catch (GasGrantRefusedException refused) {
            log.info("gas grant of {} (attempt {}): {} not recorded: {}", wallet, attemptId,
                    command.getClass().getSimpleName(), refused.getMessage());
            return false;
        }
    }
}
