package io.chanledger.api.marketplace;

/**
 * A provider did not answer as the protocol requires; the message says how, for the provider to
 * read. {@code check} names the listing rule it failed when there is one ({@code docs_missing}),
 * else null.
 */
class ProbeFailure extends Exception {

    private final String check;

    ProbeFailure(String message) {
        this(null, message);
    }

    ProbeFailure(String check, String message) {
        super(check == null ? message : check + ": " + message, null, false, false);
        this.check = check;
    }

    String check() {
        return check;
    }
}
