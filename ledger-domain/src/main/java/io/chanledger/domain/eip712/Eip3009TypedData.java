package io.chanledger.domain.eip712;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * EIP-712 digests of EIP-3009's {@code TransferWithAuthorization}, the message an x402 {@code exact}
 * payment signs, under a token's domain (Polygon's USDC: {@code "USD Coin"}, {@code "2"}). Written
 * out like {@link ChanTypedData}, with the domain separator computed once. Immutable.
 */
public final class Eip3009TypedData {

    public static final String TRANSFER_WITH_AUTHORIZATION_TYPE = "TransferWithAuthorization(address from,address to,"
            + "uint256 value,uint256 validAfter,uint256 validBefore,bytes32 nonce)";

    /** The signing domain of Circle's USDC (FiatToken v2), on Polygon and on the devnet's token. */
    public static final String USDC_NAME = "USD Coin";
    public static final String USDC_VERSION = "2";

    private static final byte[] TRANSFER_WITH_AUTHORIZATION_TYPEHASH =
            Keccak.keccak256(TRANSFER_WITH_AUTHORIZATION_TYPE.getBytes(StandardCharsets.UTF_8));

    private final Eip712Domain domain;
    private final byte[] domainSeparator;

    public Eip3009TypedData(Eip712Domain domain) {
        this.domain = Objects.requireNonNull(domain, "domain");
        this.domainSeparator = new ChanTypedData(domain).domainSeparator();
    }

    /** USDC's domain on chain {@code chainId} at {@code token}. */
    public static Eip3009TypedData usdc(long chainId, String token) {
        return new Eip3009TypedData(new Eip712Domain(USDC_NAME, USDC_VERSION, chainId, token));
    }

    public Eip712Domain domain() {
        return domain;
    }

    public byte[] domainSeparator() {
        return domainSeparator.clone();
    }

    /**
     * Digest of {@code TransferWithAuthorization(from, to, value, validAfter, validBefore, nonce)};
     * addresses and the nonce as 0x-hex, values outside uint256 refused.
     */
    public byte[] transferDigest(String from, String to, BigInteger value, BigInteger validAfter,
                                 BigInteger validBefore, String nonce) {
        byte[] struct = new byte[7 * 32];
        System.arraycopy(TRANSFER_WITH_AUTHORIZATION_TYPEHASH, 0, struct, 0, 32);
        System.arraycopy(Hex.decode(from, 20), 0, struct, 32 + 12, 20);
        System.arraycopy(Hex.decode(to, 20), 0, struct, 64 + 12, 20);
        Words.putUint256(struct, 96, value, "value");
        Words.putUint256(struct, 128, validAfter, "validAfter");
        Words.putUint256(struct, 160, validBefore, "validBefore");
        Words.putBytes32(struct, 192, Hex.decode(nonce, 32), "nonce");
        byte[] structHash = Keccak.keccak256(struct);
        byte[] envelope = new byte[2 + 32 + 32];
        envelope[0] = 0x19;
        envelope[1] = 0x01;
        System.arraycopy(domainSeparator, 0, envelope, 2, 32);
        System.arraycopy(structHash, 0, envelope, 34, 32);
        return Keccak.keccak256(envelope);
    }
}
