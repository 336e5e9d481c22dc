package io.chanledger.api.marketplace.directory;

/**
 * Who a report on a provider counts as: a wallet that signed it and has a channel with that
 * provider (verified: the report comes from a paying relationship), or else only the network it
 * came from (unverified: anyone may send it, in any number).
 */
sealed interface ReportSource {

    /** The wallet (lowercase) to keep with a verified report; null for an unverified one. */
    String wallet();

    record Wallet(String address) implements ReportSource {
        @Override
        public String wallet() {
            return address;
        }
    }

    record Network(String prefix) implements ReportSource {
        @Override
        public String wallet() {
            return null;
        }
    }
}
