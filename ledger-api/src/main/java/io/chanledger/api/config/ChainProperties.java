package io.chanledger.api.config;

import io.chanledger.domain.eip712.Eip712Domain;
import java.math.BigInteger;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The chain the ledger follows: {@code chan.chain.*}. {@code rpcUrl} empty means no chain is
 * configured; chain-dependent features (listener, lookups, claims) then stay off. {@code rpc} and
 * {@code fees} are shared by every JSON-RPC client and every transaction sender of the service
 * (listener, watchtower, gas station).
 */
@ConfigurationProperties("chan.chain")
public record ChainProperties(
        @DefaultValue("137") long chainId,
        String channelContract,
        String usdc,
        String rpcUrl,
        @DefaultValue Rpc rpc,
        @DefaultValue Fees fees) {

    /**
     * Each JSON-RPC client's per-request {@code timeout}, and the {@code attempts} a transient failure
     * (connection refused, timeout, 5xx, 429) gets before it counts as failed.
     */
    public record Rpc(@DefaultValue("10s") Duration timeout, @DefaultValue("5") int attempts) {

        public Rpc {
            if (timeout.isNegative() || timeout.isZero() || attempts < 1) {
                throw new IllegalArgumentException("chan.chain.rpc.timeout must be positive and attempts at least 1");
            }
        }
    }

    /**
     * EIP-1559 fees of the transactions the service sends (claims, gas grants): the node's suggested
     * tip, at least {@code minPriorityFee} (wei; Polygon nodes ignore tips below about 25-30 gwei),
     * and a maxFeePerGas of at most {@code maxFeeCap} (wei) when set.
     */
    public record Fees(@DefaultValue("30000000000") BigInteger minPriorityFee, BigInteger maxFeeCap) {
    }

    /** The EIP-712 domain every voucher and close authorization of this deployment is signed in. */
    public Eip712Domain signingDomain() {
        return Eip712Domain.chan(chainId, channelContract);
    }

    public boolean rpcConfigured() {
        return rpcUrl != null && !rpcUrl.isBlank();
    }
}
