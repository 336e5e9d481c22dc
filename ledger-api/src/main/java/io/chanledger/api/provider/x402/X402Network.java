package io.chanledger.api.provider.x402;

/**
 * The one network x402 payments are taken on: Polygon, named {@code eip155:137} (CAIP-2) in v2
 * and {@code polygon} in v1. The devnet runs under Polygon's chain id, so the names hold there too.
 */
public final class X402Network {

    public static final long CHAIN_ID = 137;
    public static final String V2_NAME = "eip155:" + CHAIN_ID;
    public static final String V1_NAME = "polygon";
    public static final String SCHEME_EXACT = "exact";

    private X402Network() {
    }

    /** Whether {@code name} is Polygon's name in wire version {@code x402Version}. */
    public static boolean isPolygon(String name, int x402Version) {
        return (x402Version == 1 ? V1_NAME : V2_NAME).equals(name);
    }
}
