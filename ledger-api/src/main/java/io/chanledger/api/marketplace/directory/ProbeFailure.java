package io.chanledger.api.marketplace.directory;

/**
 * A provider did not answer as the protocol requires; the message says how, for the provider to
 * read. {@code check} names the listing rule it failed when there is one ({@code docs_missing}),
 * else null. A provider that could not be reached at all, whether its address was refused or the
 * connection failed, is {@value #UNREACHABLE} and nothing more: what stopped it ({@code detail})
 * is for the operator's log only, so that a registration cannot map the network behind this service.
 */
class ProbeFailure extends Exception {

    static final String UNREACHABLE = "unreachable";

    private final String check;
    private final String detail;

    ProbeFailure(String message) {
        this(null, message);
    }

    ProbeFailure(String check, String message) {
        this(check, message, null);
    }

    private ProbeFailure(String check, String message, String detail) {
        super(check == null ? message : check + ": " + message, null, false, false);
        this.check = check;
        this.detail = detail;
    }

    /** Not reached: {@code detail} says why, for the log. */
    static ProbeFailure unreachable(String detail) {
        return new ProbeFailure(null, UNREACHABLE, detail);
    }

    String check() {
        return check;
    }

    /** Why the provider was not reached, for the operator; null for a provider that answered. */
    String detail() {
        return detail;
    }
}
