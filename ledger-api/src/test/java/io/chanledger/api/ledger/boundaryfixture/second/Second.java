package io.chanledger.api.ledger.boundaryfixture.second;

import io.chanledger.api.ledger.boundaryfixture.first.First;

/** The other half of a package cycle made on purpose (BoundaryRulesTest). */
public class Second {

    First first;
}
