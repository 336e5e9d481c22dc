package io.chanledger.domain.contract;

import io.chanledger.domain.chain.ChainRef;

/** The channel contract moved to another token: after {@code chainRef} it holds and pays {@code usdc}. */
public record UsdcUpdated(
        String contractId,
        String previousUsdc,
        String usdc,
        ChainRef chainRef) {
}
