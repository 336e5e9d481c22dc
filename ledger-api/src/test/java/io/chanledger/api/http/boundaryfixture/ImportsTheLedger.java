package io.chanledger.api.http.boundaryfixture;

import io.chanledger.api.ledger.channels.command.ChannelHistory;

/** Breaks the layering on purpose: HTTP plumbing that uses the ledger above it (BoundaryRulesTest). */
public class ImportsTheLedger {

    ChannelHistory history;
}
