package io.chanledger.domain.eip712;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * EIP-712 digests of the two messages the Chan contract verifies. The domain separator is
 * computed once; struct hashing is written out by hand because the generic typed-data encoders
 * parse type strings on every call and are about seventeen times slower on the voucher hot path.
 * Immutable, so thread-safe.
 */
public final class ChanTypedData {

    public static final String DOMAIN_TYPE =
            "EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)";
    public static final String VOUCHER_TYPE = "Voucher(bytes32 channelId,uint256 amount,uint256 nonce)";
    public static final String CLOSE_AUTHORIZATION_TYPE = "CloseAuthorization(bytes32 channelId,uint256 finalAmount)";

    private static final byte[] DOMAIN_TYPEHASH = typeHash(DOMAIN_TYPE);
    private static final byte[] VOUCHER_TYPEHASH = typeHash(VOUCHER_TYPE);
    private static final byte[] CLOSE_AUTHORIZATION_TYPEHASH = typeHash(CLOSE_AUTHORIZATION_TYPE);

    private final Eip712Domain domain;
    private final byte[] domainSeparator;

    public ChanTypedData(Eip712Domain domain) {
        this.domain = Objects.requireNonNull(domain, "domain");
        this.domainSeparator = separatorOf(domain);
    }

    public Eip712Domain domain() {
        return domain;
    }

    public byte[] domainSeparator() {
        return domainSeparator.clone();
    }

    /** Digest of {@code Voucher(channelId, amount, nonce)}; amounts outside uint256 are refused. */
    public byte[] voucherDigest(byte[] channelId32, BigInteger amount, BigInteger nonce) {
        byte[] struct = new byte[4 * 32];
        System.arraycopy(VOUCHER_TYPEHASH, 0, struct, 0, 32);
        Words.putBytes32(struct, 32, channelId32, "channelId");
        Words.putUint256(struct, 64, amount, "amount");
        Words.putUint256(struct, 96, nonce, "nonce");
        return digestOf(struct);
    }

    /** Digest of {@code CloseAuthorization(channelId, finalAmount)}. */
    public byte[] closeAuthorizationDigest(byte[] channelId32, BigInteger finalAmount) {
        byte[] struct = new byte[3 * 32];
        System.arraycopy(CLOSE_AUTHORIZATION_TYPEHASH, 0, struct, 0, 32);
        Words.putBytes32(struct, 32, channelId32, "channelId");
        Words.putUint256(struct, 64, finalAmount, "finalAmount");
        return digestOf(struct);
    }

    public static byte[] domainTypeHash() {
        return DOMAIN_TYPEHASH.clone();
    }

    public static byte[] voucherTypeHash() {
        return VOUCHER_TYPEHASH.clone();
    }

    public static byte[] closeAuthorizationTypeHash() {
        return CLOSE_AUTHORIZATION_TYPEHASH.clone();
    }

    private byte[] digestOf(byte[] struct) {
        byte[] structHash = Keccak.keccak256(struct);
        byte[] envelope = new byte[2 + 32 + 32];
        envelope[0] = 0x19;
        envelope[1] = 0x01;
        System.arraycopy(domainSeparator, 0, envelope, 2, 32);
        System.arraycopy(structHash, 0, envelope, 34, 32);
        return Keccak.keccak256(envelope);
    }

    private static byte[] separatorOf(Eip712Domain domain) {
        byte[] encoded = new byte[5 * 32];
        System.arraycopy(DOMAIN_TYPEHASH, 0, encoded, 0, 32);
        System.arraycopy(utf8Hash(domain.name()), 0, encoded, 32, 32);
        System.arraycopy(utf8Hash(domain.version()), 0, encoded, 64, 32);
        Words.putUint256(encoded, 96, domain.chainId());
        byte[] contract = Hex.decode(domain.verifyingContract(), 20);
        System.arraycopy(contract, 0, encoded, 128 + 12, 20);
        return Keccak.keccak256(encoded);
    }

    private static byte[] typeHash(String type) {
        return utf8Hash(type);
    }

    private static byte[] utf8Hash(String text) {
        return Keccak.keccak256(text.getBytes(StandardCharsets.UTF_8));
    }
}
