package io.chanledger.api.marketplace.gasstation;

import io.chanledger.chain.rpc.BlockHeader;
import io.chanledger.chain.rpc.EthApi;
import io.chanledger.chain.rpc.RpcException;
import io.chanledger.chain.tx.CallResult;
import io.chanledger.chain.tx.SendResult;
import io.chanledger.chain.tx.TransactionRequest;
import io.chanledger.chain.tx.TransactionSender;
import java.math.BigInteger;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.web3j.abi.FunctionEncoder;
import org.web3j.abi.datatypes.Address;
import org.web3j.abi.datatypes.Function;
import org.web3j.protocol.core.methods.response.EthBlock;
import org.web3j.protocol.core.methods.response.EthGetBalance;
import org.web3j.protocol.core.methods.response.EthGetCode;
import org.web3j.protocol.core.methods.response.Transaction;
import org.web3j.protocol.core.methods.response.TransactionReceipt;
import org.web3j.utils.Numeric;

/**
 * What the gas station asks of the chain: the wallet's USDC balance, the faucet's funds and
 * nonces, the transfer itself (through {@link TransactionSender}), receipts, and the search for a
 * faucet transfer whose hash was never recorded. Every method may throw {@link RpcException}.
 */
class FaucetChain {

    // EIP-7702: 0xef0100 followed by the delegate's 20-byte address, in hex digits
    private static final String DELEGATION_PREFIX = "ef0100";
    private static final int DELEGATION_LENGTH = 2 * 23;

    private final EthApi eth;
    private final TransactionSender sender;
    private final String usdc;
    private final BigInteger transferGas;
    private final BigInteger minPriorityFee;
    private final BigInteger maxFeeCap;

    FaucetChain(EthApi eth, TransactionSender sender, String usdc, long transferGas, BigInteger minPriorityFee,
                BigInteger maxFeeCap) {
        this.eth = eth;
        this.sender = sender;
        this.usdc = usdc;
        this.transferGas = BigInteger.valueOf(transferGas);
        this.minPriorityFee = minPriorityFee;
        this.maxFeeCap = maxFeeCap;
    }

    /** The faucet's address, lowercase. */
    String faucet() {
        return sender.address();
    }

    /** USDC base units held by {@code wallet} at the latest block. */
    BigInteger usdcBalance(String wallet) {
        String data = FunctionEncoder.encode(new Function("balanceOf", List.of(new Address(wallet)), List.of()));
        CallResult result = sender.call(faucet(), usdc, data, BigInteger.ZERO);
        if (!result.success()) {
            throw RpcException.permanent("eth_call", "USDC balanceOf reverted: " + result.revertReason());
        }
        String value = result.returnData();
        if (value == null || value.length() < 3) {
            throw RpcException.transientFailure("eth_call", "USDC balanceOf returned no value", null);
        }
        return Numeric.toBigInt(value);
    }

    /**
     * Whether {@code wallet} holds code at the latest block. An EIP-7702 delegation designator
     * ({@code 0xef0100} and an address) is an externally owned account's, not a contract's: it is
     * judged by {@link #transferFailure} like any wallet.
     */
    boolean holdsContractCode(String wallet) {
        EthGetCode answer = eth.client().call("eth_getCode", List.of(wallet, "latest"), EthGetCode.class);
        String code = answer.getCode();
        if (code == null) {
            throw RpcException.transientFailure("eth_getCode", "malformed answer: no code", null);
        }
        String hex = code.startsWith("0x") ? code.substring(2) : code;
        boolean delegation = hex.length() == DELEGATION_LENGTH && hex.toLowerCase(Locale.ROOT).startsWith(DELEGATION_PREFIX);
        return !hex.isEmpty() && !delegation;
    }

    /**
     * Why the grant's transfer to {@code wallet} would fail if it were sent now, or empty when it
     * would go through: the node estimates the transfer from the faucet at the latest block, which
     * fails when it would revert, and the estimate must fit the transfer's gas limit (code that runs
     * on receipt needs more). Throws {@link RpcException} only when the node could not be asked.
     */
    Optional<String> transferFailure(String wallet, BigInteger amount) {
        BigInteger needed;
        try {
            needed = eth.estimateGas(faucet(), wallet, "0x", amount);
        } catch (RpcException e) {
            if (e.isTransient()) {
                throw e;
            }
            return Optional.of(e.getMessage());
        }
        return needed.compareTo(transferGas) > 0
                ? Optional.of("it needs " + needed + " gas, the transfer is sent with " + transferGas)
                : Optional.empty();
    }

    /** The faucet's balance and what the next grant costs it at the current fees. */
    FaucetFunds funds(BigInteger grant) {
        EthGetBalance answer = eth.client().call("eth_getBalance", List.of(faucet(), "latest"), EthGetBalance.class);
        BigInteger balance = answer.getBalance();
        if (balance == null) {
            throw RpcException.transientFailure("eth_getBalance", "malformed answer: no balance", null);
        }
        return new FaucetFunds(balance, grant.add(transferGas.multiply(maxFeePerGas())));
    }

    /**
     * The maxFeePerGas the sender will offer, by the sender's rule: twice the latest base fee plus
     * the suggested tip (at least the floor), under the cap.
     */
    private BigInteger maxFeePerGas() {
        BigInteger tip = eth.maxPriorityFeePerGas().max(minPriorityFee);
        BigInteger baseFee = eth.block("latest").map(BlockHeader::baseFeePerGas).orElse(null);
        BigInteger maxFee = (baseFee == null ? BigInteger.ZERO : baseFee.shiftLeft(1)).add(tip);
        return maxFeeCap == null ? maxFee : maxFee.min(maxFeeCap);
    }

    long nonce(String account, String blockTag) {
        return eth.transactionCount(account, blockTag).longValueExact();
    }

    long blockNumber() {
        return eth.blockNumber();
    }

    /**
     * Forgets the sender's local nonce so the next send reads the node's pending count, which is
     * then exactly the nonce recorded before the send.
     */
    void resyncNonce() {
        sender.resyncNonce();
    }

    /** Signs and broadcasts the plain value transfer; returns at once with what is known (see {@link SendResult}). */
    SendResult send(String wallet, BigInteger amount) {
        return sender.send(new TransactionRequest(wallet, "0x", amount, transferGas));
    }

    Optional<TransactionReceipt> receipt(String txHash) {
        return eth.receipt(txHash);
    }

    /** Whether the node knows the transaction (mined or in its pool). */
    boolean known(String txHash) {
        return eth.transaction(txHash).isPresent();
    }

    /**
     * The first transfer from {@code faucet} to {@code wallet} in blocks {@code from}..{@code to}
     * (inclusive), read block by block with full transactions.
     */
    Optional<String> findTransfer(String faucet, String wallet, long from, long to) {
        for (long number = from; number <= to; number++) {
            EthBlock answer = eth.client().call("eth_getBlockByNumber",
                    List.of(Numeric.toHexStringWithPrefix(BigInteger.valueOf(number)), true), EthBlock.class);
            EthBlock.Block block = answer.getBlock();
            if (block == null) {
                throw RpcException.transientFailure("eth_getBlockByNumber", "the node has no block " + number, null);
            }
            for (EthBlock.TransactionResult<?> result : block.getTransactions()) {
                if (result.get() instanceof Transaction tx && faucet.equals(lower(tx.getFrom()))
                        && wallet.equals(lower(tx.getTo()))) {
                    return Optional.of(lower(tx.getHash()));
                }
            }
        }
        return Optional.empty();
    }

    private static String lower(String text) {
        return text == null ? null : text.toLowerCase(Locale.ROOT);
    }

    /** The faucet's balance and the balance one grant needs, value plus the most its gas may cost; in wei. */
    record FaucetFunds(BigInteger balance, BigInteger required) {

        boolean canPay() {
            return balance.compareTo(required) >= 0;
        }
    }
}
