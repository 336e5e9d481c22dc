package io.chanledger.domain.channel;

/** A close authorization the contract would refuse, so the ledger does not record it. */
public class CloseAuthorizationRejectedException extends RuntimeException {

    public CloseAuthorizationRejectedException(String message) {
        super(message, null, false, false);
    }
}
