package io.chanledger.api.config;

import io.chanledger.domain.eip712.Eip712Domain;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The chain the ledger follows: {@code chan.chain.*}. {@code rpcUrl} empty means no chain is
 * configured; chain-dependent features (listener, lookups, claims) then stay off.
 */
@ConfigurationProperties("chan.chain")
public record ChainProperties(
        @DefaultValue("137") long chainId,
        String channelContract,
        String usdc,
        String rpcUrl) {

    /** The EIP-712 domain every voucher and close authorization of this deployment is signed in. */
    public Eip712Domain signingDomain() {
        return Eip712Domain.chan(chainId, channelContract);
    }

    public boolean rpcConfigured() {
        return rpcUrl != null && !rpcUrl.isBlank();
    }
}
