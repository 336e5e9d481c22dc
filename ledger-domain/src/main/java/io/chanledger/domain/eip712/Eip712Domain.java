package io.chanledger.domain.eip712;

import java.util.Objects;

/**
 * {@code EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)}.
 * The verifying contract is kept in the domain's lowercase spelling.
 */
public record Eip712Domain(String name, String version, long chainId, String verifyingContract) {

    public static final String CHAN_NAME = "ChanChannel";
    public static final String CHAN_VERSION = "1";

    public Eip712Domain {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(version, "version");
        if (chainId <= 0) {
            throw new IllegalArgumentException("chainId must be positive, got " + chainId);
        }
        verifyingContract = Hex.normalizeAddress(verifyingContract);
    }

    /** The domain the Chan channel contract fixes at deployment. */
    public static Eip712Domain chan(long chainId, String verifyingContract) {
        return new Eip712Domain(CHAN_NAME, CHAN_VERSION, chainId, verifyingContract);
    }
}
