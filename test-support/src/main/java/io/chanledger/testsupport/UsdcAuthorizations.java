package io.chanledger.testsupport;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.web3j.abi.FunctionEncoder;
import org.web3j.abi.FunctionReturnDecoder;
import org.web3j.abi.TypeReference;
import org.web3j.abi.datatypes.Address;
import org.web3j.abi.datatypes.DynamicBytes;
import org.web3j.abi.datatypes.Function;
import org.web3j.abi.datatypes.Type;
import org.web3j.abi.datatypes.Utf8String;
import org.web3j.abi.datatypes.generated.Bytes32;
import org.web3j.abi.datatypes.generated.Uint256;
import org.web3j.abi.datatypes.generated.Uint8;
import org.web3j.crypto.Credentials;
import org.web3j.crypto.Hash;
import org.web3j.protocol.core.methods.response.Log;
import org.web3j.protocol.core.methods.response.TransactionReceipt;
import org.web3j.utils.Numeric;

/**
 * EIP-3009 on a TestUSDC (by default the devnet's, at Polygon's USDC address): signing
 * authorizations for it, sending {@code transferWithAuthorization}, {@code receiveWithAuthorization}
 * and {@code cancelAuthorization} in either of their signature forms, and reading what it answers.
 */
public final class UsdcAuthorizations {

    private static final ContractArtifact WALLET_ARTIFACT = ContractArtifact.load("TestWallet");

    /** The two overloads of each call: the signature as {@code bytes}, or split into {@code v, r, s}. */
    public enum SignatureForm { BYTES, V_R_S }

    private final ChainRpc rpc;
    private final String token;
    private final long chainId;
    private final Map<String, String> eventsByTopic = new HashMap<>();

    public UsdcAuthorizations(ChainRpc rpc, String token, long chainId) {
        this.rpc = rpc;
        this.token = token;
        this.chainId = chainId;
        for (String signature : Devnet.usdcArtifact().eventSignatures()) {
            eventsByTopic.put(Hash.sha3String(signature), signature.substring(0, signature.indexOf('(')));
        }
    }

    public String token() {
        return token;
    }

    /**
     * Deploys a TestWallet: a contract wallet (a payer address with code) that vouches, through
     * ERC-1271, for what {@code owner}'s key signs.
     */
    public String deployTestWallet(Credentials deployer, String owner) {
        return rpc.send(deployer, null, WALLET_ARTIFACT.bytecode()
                + FunctionEncoder.encodeConstructor(List.of(new Address(owner)))).getContractAddress();
    }

    /** The domain separator an x402 client signs under for this token, computed here. */
    public byte[] domainSeparator() {
        return UsdcSignatures.domainSeparator(chainId, token);
    }

    /** The domain separator the token checks signatures under: its {@code DOMAIN_SEPARATOR()}. */
    public byte[] contractDomainSeparator() {
        return readBytes32("DOMAIN_SEPARATOR");
    }

    public byte[] signTransfer(Credentials signer, Authorization authorization) {
        return ChannelSignatures.sign(UsdcSignatures.transferDigest(domainSeparator(), authorization), signer);
    }

    public byte[] signReceive(Credentials signer, Authorization authorization) {
        return ChannelSignatures.sign(UsdcSignatures.receiveDigest(domainSeparator(), authorization), signer);
    }

    public byte[] signCancel(Credentials signer, String authorizer, String nonce) {
        return ChannelSignatures.sign(UsdcSignatures.cancelDigest(domainSeparator(), authorizer, nonce), signer);
    }

    public TransactionReceipt transferWithAuthorization(Credentials sender, Authorization authorization,
                                                        byte[] signature, SignatureForm form) {
        return rpc.send(sender, token, authorizationCall("transferWithAuthorization", authorization, signature, form));
    }

    public TransactionReceipt receiveWithAuthorization(Credentials sender, Authorization authorization,
                                                       byte[] signature, SignatureForm form) {
        return rpc.send(sender, token, authorizationCall("receiveWithAuthorization", authorization, signature, form));
    }

    public TransactionReceipt cancelAuthorization(Credentials sender, String authorizer, String nonce, byte[] signature,
                                                  SignatureForm form) {
        List<Type> args = new ArrayList<>(List.of(new Address(authorizer), bytes32(nonce)));
        args.addAll(signatureArgs(signature, form));
        return rpc.send(sender, token, encode("cancelAuthorization", args));
    }

    public boolean authorizationState(String authorizer, String nonce) {
        return Numeric.toBigInt(rpc.call(authorizer, token,
                encode("authorizationState", List.of(new Address(authorizer), bytes32(nonce))))).signum() != 0;
    }

    /** A {@code bytes32} view without arguments, such as {@code TRANSFER_WITH_AUTHORIZATION_TYPEHASH}. */
    public byte[] readBytes32(String getter) {
        return Numeric.hexStringToByteArray(rpc.call(token, token, encode(getter, List.of())));
    }

    /** A {@code string} view without arguments, such as {@code name} or {@code version}. */
    public String readText(String getter) {
        List<Type> decoded = FunctionReturnDecoder.decode(rpc.call(token, token, encode(getter, List.of())),
                List.of(cast(new TypeReference<Utf8String>() { })));
        return (String) decoded.getFirst().getValue();
    }

    /** Names of this token's events in a receipt, in log order. */
    public List<String> eventNames(TransactionReceipt receipt) {
        return tokenLogs(receipt).stream().map(log -> eventsByTopic.getOrDefault(log.getTopics().getFirst(), "unknown"))
                .toList();
    }

    /** The receipt's logs of one of this token's events, in log order. */
    public List<Log> logs(TransactionReceipt receipt, String eventName) {
        return tokenLogs(receipt).stream().filter(log -> eventName.equals(eventsByTopic.get(log.getTopics().getFirst())))
                .toList();
    }

    private List<Log> tokenLogs(TransactionReceipt receipt) {
        return receipt.getLogs().stream().filter(log -> token.equalsIgnoreCase(log.getAddress())).toList();
    }

    private static String authorizationCall(String name, Authorization a, byte[] signature, SignatureForm form) {
        List<Type> args = new ArrayList<>(List.of(new Address(a.from()), new Address(a.to()), new Uint256(a.value()),
                new Uint256(a.validAfter()), new Uint256(a.validBefore()), bytes32(a.nonce())));
        args.addAll(signatureArgs(signature, form));
        return encode(name, args);
    }

    /** The split form needs 65 bytes r ‖ s ‖ v; the bytes form passes whatever it is given. */
    private static List<Type> signatureArgs(byte[] signature, SignatureForm form) {
        return switch (form) {
            case BYTES -> List.of(new DynamicBytes(signature));
            case V_R_S -> List.of(new Uint8(signature[64] & 0xff), new Bytes32(Arrays.copyOfRange(signature, 0, 32)),
                    new Bytes32(Arrays.copyOfRange(signature, 32, 64)));
        };
    }

    private static Bytes32 bytes32(String hex) {
        return new Bytes32(Numeric.hexStringToByteArray(hex));
    }

    private static String encode(String name, List<Type> args) {
        return FunctionEncoder.encode(new Function(name, args, List.of()));
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static TypeReference<Type> cast(TypeReference<?> reference) {
        return (TypeReference) reference;
    }

    @Override
    public String toString() {
        return "UsdcAuthorizations[" + token + " on chain " + chainId + "]";
    }
}
