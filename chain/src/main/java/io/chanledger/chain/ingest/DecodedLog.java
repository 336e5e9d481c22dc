package io.chanledger.chain.ingest;

import io.chanledger.domain.chain.ChainRef;

/** What a log of the channel contract turned out to be: a fact the ledger records, or something to skip. */
public sealed interface DecodedLog permits DecodedLog.Recorded, DecodedLog.Skipped {

    /** A log the ledger records: a fact of one channel, or of the contract itself. */
    sealed interface Recorded extends DecodedLog permits ChannelLog, ContractLog {

        ChainRef chainRef();
    }

    /** An administrative event ({@code admin} true) or a topic the ledger does not know. */
    record Skipped(String topic0, boolean admin) implements DecodedLog {
    }
}
