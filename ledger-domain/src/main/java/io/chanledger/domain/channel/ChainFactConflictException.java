package io.chanledger.domain.channel;

/**
 * A fact reported from the chain contradicts what the ledger holds for the channel (a claim above
 * the deposit, a log for a channel that was never opened, ...). It is never silently applied:
 * the listener stops and raises an alert, since either the ledger or the node is wrong.
 */
public class ChainFactConflictException extends RuntimeException {

    public ChainFactConflictException(String message) {
        super(message, null, false, false);
    }
}
