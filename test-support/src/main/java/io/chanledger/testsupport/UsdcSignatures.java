package io.chanledger.testsupport;

import static io.chanledger.testsupport.ChannelSignatures.concat;
import static io.chanledger.testsupport.ChannelSignatures.digest;
import static io.chanledger.testsupport.ChannelSignatures.keccak;
import static io.chanledger.testsupport.ChannelSignatures.word;

import org.web3j.crypto.Hash;
import org.web3j.utils.Numeric;

/**
 * EIP-712 digests of the EIP-3009 authorizations of USDC (Circle's FiatToken v2, whose domain the
 * devnet's TestUSDC has), written out by hand from EIP-3009 and EIP-712 so tests stay independent
 * of any library's typed-data code; the known-answer vectors check them against viem's.
 */
public final class UsdcSignatures {

    /** The domain's name and version, Polygon's USDC's and the devnet token's. */
    public static final String NAME = "USD Coin";
    public static final String VERSION = "2";

    static final byte[] TRANSFER_WITH_AUTHORIZATION_TYPEHASH = keccak("TransferWithAuthorization(address from,"
            + "address to,uint256 value,uint256 validAfter,uint256 validBefore,bytes32 nonce)");
    static final byte[] RECEIVE_WITH_AUTHORIZATION_TYPEHASH = keccak("ReceiveWithAuthorization(address from,"
            + "address to,uint256 value,uint256 validAfter,uint256 validBefore,bytes32 nonce)");
    static final byte[] CANCEL_AUTHORIZATION_TYPEHASH = keccak("CancelAuthorization(address authorizer,bytes32 nonce)");

    private UsdcSignatures() {
    }

    public static byte[] domainSeparator(long chainId, String token) {
        return ChannelSignatures.domainSeparator(NAME, VERSION, chainId, token);
    }

    public static byte[] transferDigest(byte[] domainSeparator, Authorization authorization) {
        return digest(domainSeparator, authorizationHash(TRANSFER_WITH_AUTHORIZATION_TYPEHASH, authorization));
    }

    public static byte[] receiveDigest(byte[] domainSeparator, Authorization authorization) {
        return digest(domainSeparator, authorizationHash(RECEIVE_WITH_AUTHORIZATION_TYPEHASH, authorization));
    }

    public static byte[] cancelDigest(byte[] domainSeparator, String authorizer, String nonce) {
        byte[] structHash = Hash.sha3(concat(CANCEL_AUTHORIZATION_TYPEHASH, word(Numeric.toBigInt(authorizer)),
                Numeric.hexStringToByteArray(nonce)));
        return digest(domainSeparator, structHash);
    }

    /** hashStruct of a TransferWithAuthorization or ReceiveWithAuthorization: the same fields under two types. */
    static byte[] authorizationHash(byte[] typehash, Authorization a) {
        return Hash.sha3(concat(typehash, word(Numeric.toBigInt(a.from())), word(Numeric.toBigInt(a.to())),
                word(a.value()), word(a.validAfter()), word(a.validBefore()), Numeric.hexStringToByteArray(a.nonce())));
    }
}
