package io.chanledger.api.marketplace;

/** A provider did not answer as the protocol requires; the message says how, for the provider to read. */
class ProbeFailure extends Exception {

    ProbeFailure(String message) {
        super(message, null, false, false);
    }
}
