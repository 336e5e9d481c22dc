package io.chanledger.api.ledger.boundaryfixture.first;

import io.chanledger.api.ledger.boundaryfixture.second.Second;

/** Half of a package cycle made on purpose (BoundaryRulesTest). */
public class First {

    Second second;
}
