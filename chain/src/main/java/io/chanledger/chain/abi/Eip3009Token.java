package io.chanledger.chain.abi;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.web3j.abi.FunctionEncoder;
import org.web3j.abi.datatypes.Address;
import org.web3j.abi.datatypes.DynamicBytes;
import org.web3j.abi.datatypes.Function;
import org.web3j.abi.datatypes.Type;
import org.web3j.abi.datatypes.generated.Bytes32;
import org.web3j.abi.datatypes.generated.Uint256;
import org.web3j.crypto.Hash;
import org.web3j.protocol.core.methods.response.Log;
import org.web3j.protocol.core.methods.response.TransactionReceipt;
import org.web3j.utils.Numeric;

/**
 * The calls and events of an EIP-3009 token (Circle's USDC, FiatToken v2.2, and the devnet's
 * TestUSDC) that an x402 facilitator uses: {@code transferWithAuthorization} in its {@code bytes
 * signature} form (the one that also takes ERC-1271 signatures of contract wallets),
 * {@code authorizationState}, {@code balanceOf}, ERC-1271's {@code isValidSignature}, and the
 * {@code Transfer} and {@code AuthorizationUsed} logs of a receipt.
 */
public final class Eip3009Token {

    public static final String TRANSFER_TOPIC = Hash.sha3String("Transfer(address,address,uint256)");
    public static final String AUTHORIZATION_USED_TOPIC = Hash.sha3String("AuthorizationUsed(address,bytes32)");
    /** What ERC-1271's {@code isValidSignature(bytes32,bytes)} returns for a signature it accepts. */
    public static final String ERC1271_MAGIC_VALUE = "0x1626ba7e";

    private Eip3009Token() {
    }

    /** A {@code Transfer(from, to, value)} log of the token, addresses lowercase. */
    public record Transfer(String from, String to, BigInteger value, String txHash, long blockNumber, int logIndex) {
    }

    /** An {@code AuthorizationUsed(authorizer, nonce)} log of the token, lowercase hex. */
    public record AuthorizationUsed(String authorizer, String nonce, String txHash, long blockNumber, int logIndex) {
    }

    public static String transferWithAuthorization(String from, String to, BigInteger value, BigInteger validAfter,
                                                   BigInteger validBefore, String nonce, byte[] signature) {
        return encode("transferWithAuthorization", List.of(new Address(from), new Address(to), new Uint256(value),
                new Uint256(validAfter), new Uint256(validBefore), bytes32(nonce), new DynamicBytes(signature)));
    }

    public static String authorizationState(String authorizer, String nonce) {
        return encode("authorizationState", List.of(new Address(authorizer), bytes32(nonce)));
    }

    public static String balanceOf(String account) {
        return encode("balanceOf", List.of(new Address(account)));
    }

    public static String isValidSignature(byte[] digest, byte[] signature) {
        return encode("isValidSignature", List.of(new Bytes32(digest), new DynamicBytes(signature)));
    }

    /** A {@code bool} or {@code uint256} return value as a number; an empty answer is zero. */
    public static BigInteger word(String returned) {
        return returned == null || returned.length() <= 2 ? BigInteger.ZERO : Numeric.toBigInt(returned.substring(0,
                Math.min(returned.length(), 66)));
    }

    /** Whether an {@code isValidSignature} answer is ERC-1271's magic value. */
    public static boolean isMagicValue(String returned) {
        return returned != null && returned.length() >= 10
                && returned.substring(0, 10).equalsIgnoreCase(ERC1271_MAGIC_VALUE);
    }

    /** The token's {@code Transfer} logs in {@code receipt}. */
    public static List<Transfer> transfers(TransactionReceipt receipt, String token) {
        return transfers(receipt.getLogs(), token);
    }

    /** The token's {@code Transfer} logs among {@code logs}. */
    public static List<Transfer> transfers(List<Log> logs, String token) {
        List<Transfer> transfers = new ArrayList<>();
        for (Log log : logs) {
            if (isOf(log, token, TRANSFER_TOPIC) && log.getTopics().size() == 3) {
                transfers.add(new Transfer(topicAddress(log, 1), topicAddress(log, 2), word(log.getData()),
                        log.getTransactionHash().toLowerCase(Locale.ROOT), log.getBlockNumber().longValueExact(),
                        log.getLogIndex().intValueExact()));
            }
        }
        return transfers;
    }

    /** The token's {@code AuthorizationUsed} logs among {@code logs}. */
    public static List<AuthorizationUsed> authorizationsUsed(List<Log> logs, String token) {
        List<AuthorizationUsed> used = new ArrayList<>();
        for (Log log : logs) {
            if (isOf(log, token, AUTHORIZATION_USED_TOPIC) && log.getTopics().size() == 3) {
                used.add(new AuthorizationUsed(topicAddress(log, 1), log.getTopics().get(2).toLowerCase(Locale.ROOT),
                        log.getTransactionHash().toLowerCase(Locale.ROOT), log.getBlockNumber().longValueExact(),
                        log.getLogIndex().intValueExact()));
            }
        }
        return used;
    }

    private static boolean isOf(Log log, String token, String topic) {
        return log.getAddress() != null && log.getAddress().equalsIgnoreCase(token) && !log.getTopics().isEmpty()
                && log.getTopics().getFirst().equalsIgnoreCase(topic);
    }

    private static String topicAddress(Log log, int index) {
        String topic = log.getTopics().get(index);
        return ("0x" + topic.substring(topic.length() - 40)).toLowerCase(Locale.ROOT);
    }

    private static Bytes32 bytes32(String hex) {
        return new Bytes32(Numeric.hexStringToByteArray(hex));
    }

    private static String encode(String name, List<Type> args) {
        return FunctionEncoder.encode(new Function(name, new ArrayList<>(args), List.of()));
    }
}
