package io.chanledger.chain.ingest;

/** What a log of the channel contract turned out to be: a channel fact, or something to skip. */
public sealed interface DecodedLog permits ChannelLog, DecodedLog.Skipped {

    /** An administrative event ({@code admin} true) or a topic the ledger does not know. */
    record Skipped(String topic0, boolean admin) implements DecodedLog {
    }
}
