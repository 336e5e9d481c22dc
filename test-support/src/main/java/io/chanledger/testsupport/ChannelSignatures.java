package io.chanledger.testsupport;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import org.web3j.crypto.Credentials;
import org.web3j.crypto.Hash;
import org.web3j.crypto.Sign;
import org.web3j.utils.Numeric;

/**
 * EIP-712 digests and signatures for ChanChannel, written out by hand from the protocol text so
 * tests stay independent of the project's production hashing code. {@link UsdcSignatures} builds
 * the token's on the same helpers.
 */
public final class ChannelSignatures {

    private static final byte[] DOMAIN_TYPEHASH =
            keccak("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)");
    private static final byte[] VOUCHER_TYPEHASH = keccak("Voucher(bytes32 channelId,uint256 amount,uint256 nonce)");
    private static final byte[] CLOSE_AUTHORIZATION_TYPEHASH =
            keccak("CloseAuthorization(bytes32 channelId,uint256 finalAmount)");

    private ChannelSignatures() {
    }

    public static byte[] domainSeparator(long chainId, String verifyingContract) {
        return domainSeparator("ChanChannel", "1", chainId, verifyingContract);
    }

    static byte[] domainSeparator(String name, String version, long chainId, String verifyingContract) {
        return Hash.sha3(concat(DOMAIN_TYPEHASH, keccak(name), keccak(version),
                word(BigInteger.valueOf(chainId)), word(Numeric.toBigInt(verifyingContract))));
    }

    public static byte[] voucherDigest(byte[] domainSeparator, String channelId, BigInteger amount, BigInteger nonce) {
        byte[] structHash = Hash.sha3(concat(VOUCHER_TYPEHASH, Numeric.hexStringToByteArray(channelId),
                word(amount), word(nonce)));
        return digest(domainSeparator, structHash);
    }

    public static byte[] closeAuthorizationDigest(byte[] domainSeparator, String channelId, BigInteger finalAmount) {
        byte[] structHash = Hash.sha3(concat(CLOSE_AUTHORIZATION_TYPEHASH, Numeric.hexStringToByteArray(channelId),
                word(finalAmount)));
        return digest(domainSeparator, structHash);
    }

    /** 65 bytes r ‖ s ‖ v with low s and v of 27 or 28, as wallets produce them. */
    public static byte[] sign(byte[] digest, Credentials signer) {
        Sign.SignatureData signature = Sign.signMessage(digest, signer.getEcKeyPair(), false);
        return concat(signature.getR(), signature.getS(), signature.getV());
    }

    static byte[] digest(byte[] domainSeparator, byte[] structHash) {
        return Hash.sha3(concat(new byte[] {0x19, 0x01}, domainSeparator, structHash));
    }

    static byte[] keccak(String text) {
        return Hash.sha3(text.getBytes(StandardCharsets.UTF_8));
    }

    static byte[] word(BigInteger value) {
        return Numeric.toBytesPadded(value, 32);
    }

    static byte[] concat(byte[]... parts) {
        int length = 0;
        for (byte[] part : parts) {
            length += part.length;
        }
        ByteBuffer buffer = ByteBuffer.allocate(length);
        for (byte[] part : parts) {
            buffer.put(part);
        }
        return buffer.array();
    }
}
