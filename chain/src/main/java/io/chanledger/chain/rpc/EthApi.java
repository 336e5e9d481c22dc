package io.chanledger.chain.rpc;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.web3j.protocol.core.methods.response.EthBlock;
import org.web3j.protocol.core.methods.response.EthCall;
import org.web3j.protocol.core.methods.response.EthChainId;
import org.web3j.protocol.core.methods.response.EthEstimateGas;
import org.web3j.protocol.core.methods.response.EthGetTransactionCount;
import org.web3j.protocol.core.methods.response.EthGetTransactionReceipt;
import org.web3j.protocol.core.methods.response.EthLog;
import org.web3j.protocol.core.methods.response.EthMaxPriorityFeePerGas;
import org.web3j.protocol.core.methods.response.EthBlockNumber;
import org.web3j.protocol.core.methods.response.EthSendTransaction;
import org.web3j.protocol.core.methods.response.EthTransaction;
import org.web3j.protocol.core.methods.response.Log;
import org.web3j.protocol.core.methods.response.Transaction;
import org.web3j.protocol.core.methods.response.TransactionReceipt;
import org.web3j.utils.Numeric;

/** The Ethereum JSON-RPC methods the listener, the lookup and the sender use, typed. */
public final class EthApi {

    private final JsonRpcClient rpc;

    public EthApi(JsonRpcClient rpc) {
        this.rpc = rpc;
    }

    public JsonRpcClient client() {
        return rpc;
    }

    public long chainId() {
        EthChainId answer = rpc.call("eth_chainId", List.of(), EthChainId.class);
        return required(() -> answer.getChainId().longValueExact(), "eth_chainId");
    }

    public long blockNumber() {
        EthBlockNumber answer = rpc.call("eth_blockNumber", List.of(), EthBlockNumber.class);
        return required(() -> answer.getBlockNumber().longValueExact(), "eth_blockNumber");
    }

    /** A block by number; empty when the node has no such block (yet, or any more). */
    public Optional<BlockHeader> block(long number) {
        return block(Numeric.toHexStringWithPrefix(BigInteger.valueOf(number)));
    }

    /** A block by tag ({@code latest}, {@code safe}, {@code finalized}) or hex number. */
    public Optional<BlockHeader> block(String tagOrHexNumber) {
        EthBlock answer = rpc.call("eth_getBlockByNumber", List.of(tagOrHexNumber, false), EthBlock.class);
        return Optional.ofNullable(answer.getBlock()).map(EthApi::header);
    }

    /** Several blocks in one batch, keyed by number; a block the node does not have is a transient failure. */
    public Map<Long, BlockHeader> blocks(Collection<Long> numbers) {
        List<List<?>> params = new ArrayList<>();
        numbers.forEach(n -> params.add(List.of(Numeric.toHexStringWithPrefix(BigInteger.valueOf(n)), false)));
        List<EthBlock> answers = rpc.batch("eth_getBlockByNumber", params, EthBlock.class);
        Map<Long, BlockHeader> blocks = new LinkedHashMap<>();
        int i = 0;
        for (Long number : numbers) {
            EthBlock.Block block = answers.get(i++).getBlock();
            BlockHeader header = block == null ? null : header(block);
            if (header == null || header.number() != number) {
                throw RpcException.transientFailure("eth_getBlockByNumber", "the node has no block " + number, null);
            }
            blocks.put(number, header);
        }
        return blocks;
    }

    /** Logs of one contract, blocks {@code from}..{@code to} inclusive, in chain order. */
    public List<Log> logs(String address, long from, long to) {
        Map<String, Object> filter = new LinkedHashMap<>();
        filter.put("address", address);
        filter.put("fromBlock", Numeric.toHexStringWithPrefix(BigInteger.valueOf(from)));
        filter.put("toBlock", Numeric.toHexStringWithPrefix(BigInteger.valueOf(to)));
        EthLog answer = rpc.call("eth_getLogs", List.of(filter), EthLog.class);
        List<Log> logs = new ArrayList<>();
        for (EthLog.LogResult<?> result : required(answer::getLogs, "eth_getLogs")) {
            if (!(result.get() instanceof Log log)) {
                throw RpcException.transientFailure("eth_getLogs", "malformed answer: a log is not an object", null);
            }
            logs.add(log);
        }
        return logs;
    }

    /** Transactions by hash, in one batch; a transaction the node does not know maps to empty. */
    public Map<String, Optional<Transaction>> transactions(Collection<String> hashes) {
        List<List<?>> params = hashes.stream().<List<?>>map(List::of).toList();
        List<EthTransaction> answers = rpc.batch("eth_getTransactionByHash", params, EthTransaction.class);
        Map<String, Optional<Transaction>> transactions = new LinkedHashMap<>();
        int i = 0;
        for (String hash : hashes) {
            transactions.put(hash, answers.get(i++).getTransaction());
        }
        return transactions;
    }

    public Optional<Transaction> transaction(String hash) {
        return rpc.call("eth_getTransactionByHash", List.of(hash), EthTransaction.class).getTransaction();
    }

    /**
     * {@code eth_call}; returns the return data. A revert is an {@link RpcException} of kind
     * PERMANENT whose {@link RpcException#errorData()} holds the revert data, if the node gave any.
     */
    public String call(String from, String to, String data, BigInteger value, String blockTag) {
        EthCall answer = rpc.call("eth_call", List.of(callObject(from, to, data, value, null), blockTag), EthCall.class);
        return answer.getValue() == null ? "0x" : answer.getValue();
    }

    /** {@code eth_getCode}: the account's code, {@code 0x} for an account without any (a key's). */
    public String code(String address, String blockTag) {
        org.web3j.protocol.core.methods.response.EthGetCode answer = rpc.call("eth_getCode", List.of(address, blockTag),
                org.web3j.protocol.core.methods.response.EthGetCode.class);
        return answer.getCode() == null ? "0x" : answer.getCode();
    }

    public BigInteger estimateGas(String from, String to, String data, BigInteger value) {
        EthEstimateGas answer = rpc.call("eth_estimateGas", List.of(callObject(from, to, data, value, null)),
                EthEstimateGas.class);
        return required(answer::getAmountUsed, "eth_estimateGas");
    }

    public BigInteger transactionCount(String address, String blockTag) {
        EthGetTransactionCount answer = rpc.call("eth_getTransactionCount", List.of(address, blockTag),
                EthGetTransactionCount.class);
        return required(answer::getTransactionCount, "eth_getTransactionCount");
    }

    public BigInteger maxPriorityFeePerGas() {
        EthMaxPriorityFeePerGas answer = rpc.call("eth_maxPriorityFeePerGas", List.of(), EthMaxPriorityFeePerGas.class);
        return required(answer::getMaxPriorityFeePerGas, "eth_maxPriorityFeePerGas");
    }

    /** Broadcasts a signed transaction; returns its hash as the node reports it. */
    public String sendRawTransaction(String signedTransactionHex) {
        EthSendTransaction answer = rpc.call("eth_sendRawTransaction", List.of(signedTransactionHex),
                EthSendTransaction.class);
        return required(answer::getTransactionHash, "eth_sendRawTransaction");
    }

    public Optional<TransactionReceipt> receipt(String transactionHash) {
        return rpc.call("eth_getTransactionReceipt", List.of(transactionHash), EthGetTransactionReceipt.class)
                .getTransactionReceipt();
    }

    static Map<String, Object> callObject(String from, String to, String data, BigInteger value, BigInteger gas) {
        Map<String, Object> call = new LinkedHashMap<>();
        if (from != null) {
            call.put("from", from);
        }
        call.put("to", to);
        call.put("data", data);
        if (value != null && value.signum() > 0) {
            call.put("value", Numeric.toHexStringWithPrefix(value));
        }
        if (gas != null) {
            call.put("gas", Numeric.toHexStringWithPrefix(gas));
        }
        return call;
    }

    private static BlockHeader header(EthBlock.Block block) {
        return required(() -> new BlockHeader(block.getNumber().longValueExact(), block.getHash().toLowerCase(Locale.ROOT),
                block.getParentHash().toLowerCase(Locale.ROOT), block.getTimestamp().longValueExact(),
                block.getBaseFeePerGasRaw() == null ? null : block.getBaseFeePerGas()), "eth_getBlockByNumber");
    }

    /** Reads a value out of an answer; a missing or undecodable value is a malformed answer. */
    private static <T> T required(Supplier<T> read, String method) {
        T value;
        try {
            value = read.get();
        } catch (RuntimeException e) {
            throw RpcException.transientFailure(method, "malformed answer: " + e.getMessage(), e);
        }
        if (value == null) {
            throw RpcException.transientFailure(method, "malformed answer: no result", null);
        }
        return value;
    }
}
