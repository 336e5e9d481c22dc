package io.chanledger.testsupport;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.awaitility.core.ConditionTimeoutException;
import org.web3j.abi.FunctionReturnDecoder;
import org.web3j.abi.TypeReference;
import org.web3j.abi.datatypes.Type;
import org.web3j.abi.datatypes.Utf8String;
import org.web3j.crypto.Credentials;
import org.web3j.protocol.Web3j;
import org.web3j.protocol.core.DefaultBlockParameterName;
import org.web3j.protocol.core.Request;
import org.web3j.protocol.core.Response;
import org.web3j.protocol.core.methods.request.Transaction;
import org.web3j.protocol.core.methods.response.EthCall;
import org.web3j.protocol.core.methods.response.EthEstimateGas;
import org.web3j.protocol.core.methods.response.EthSendTransaction;
import org.web3j.protocol.core.methods.response.TransactionReceipt;
import org.web3j.tx.RawTransactionManager;
import org.web3j.utils.Numeric;

/**
 * Signed transactions, simulated calls with decoded reverts, and anvil's test-node methods
 * (snapshots, time travel, balances) on one node.
 */
public final class ChainRpc {

    private static final Pattern HEX = Pattern.compile("0x[0-9a-fA-F]*");
    private static final String ERROR_STRING_SELECTOR = "0x08c379a0";
    private static final String PANIC_SELECTOR = "0x4e487b71";
    private static final long RECEIPT_TIMEOUT_MILLIS = 30_000;
    private static final BigInteger TIP = BigInteger.valueOf(1_000_000_000L);

    private final AnvilNode node;
    private final Web3j web3j;
    private final Map<String, String> errorsBySelector = new HashMap<>();

    public ChainRpc(AnvilNode node, List<ContractArtifact> contracts) {
        this.node = node;
        this.web3j = node.web3j();
        contracts.forEach(contract -> errorsBySelector.putAll(contract.errorsBySelector()));
    }

    public Web3j web3j() {
        return web3j;
    }

    /**
     * Signs and sends a transaction ({@code to} null creates a contract) and waits for its receipt.
     *
     * @throws ContractRevertedException if the transaction would revert (found by gas estimation)
     *         or its receipt says it failed
     */
    public TransactionReceipt send(Credentials from, String to, String data) {
        return awaitSuccess(submit(from, to, data));
    }

    /**
     * Signs and broadcasts a transaction without waiting for it to be mined; with automine off
     * (see {@link #setAutomine}) several can then go into one block. Returns the transaction hash.
     */
    public synchronized String submit(Credentials from, String to, String data) {
        Transaction estimate = Transaction.createEthCallTransaction(from.getAddress(), to, data);
        EthEstimateGas gas = checked(web3j.ethEstimateGas(estimate));
        if (gas.hasError()) {
            throw reverted(gas.getError());
        }
        // Headroom over the estimate: the estimate is exact on an idle node, not when blocks move.
        BigInteger gasLimit = gas.getAmountUsed().multiply(BigInteger.valueOf(6)).divide(BigInteger.valueOf(5))
                .add(BigInteger.valueOf(10_000));
        BigInteger gasPrice = gasPrice();
        RawTransactionManager signer = new RawTransactionManager(web3j, from, AnvilNode.CHAIN_ID);
        EthSendTransaction sent;
        try {
            sent = signer.sendTransaction(gasPrice, gasLimit, to, data, BigInteger.ZERO, to == null);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (sent.hasError()) {
            throw reverted(sent.getError());
        }
        return sent.getTransactionHash();
    }

    /**
     * Twice the latest base fee plus a fixed tip. Outbidding eth_gasPrice instead would feed anvil's
     * tip suggestion, which then doubles with every transaction until no wallet can pay for gas.
     */
    private BigInteger gasPrice() {
        var latest = checked(web3j.ethGetBlockByNumber(DefaultBlockParameterName.LATEST, false)).getBlock();
        return latest.getBaseFeePerGasRaw() == null ? checked(web3j.ethGasPrice()).getGasPrice()
                : latest.getBaseFeePerGas().shiftLeft(1).add(TIP);
    }

    /** Waits for a submitted transaction's receipt; throws if it failed. */
    public TransactionReceipt awaitSuccess(String transactionHash) {
        TransactionReceipt receipt = awaitReceipt(transactionHash);
        if (!receipt.isStatusOK()) {
            throw new ContractRevertedException("transaction " + transactionHash + " failed", null);
        }
        return receipt;
    }

    /** eth_call at the latest block; returns the raw return data. */
    public String call(String from, String to, String data) {
        EthCall result = checked(web3j.ethCall(Transaction.createEthCallTransaction(from, to, data),
                DefaultBlockParameterName.LATEST));
        if (result.hasError()) {
            throw reverted(result.getError());
        }
        return result.getValue();
    }

    public CallOutcome simulate(String from, String to, String data) {
        try {
            call(from, to, data);
            return CallOutcome.succeeded();
        } catch (ContractRevertedException e) {
            return CallOutcome.reverted(e.error());
        }
    }

    /** Names a revert: a custom error of the loaded contracts, {@code Error: reason}, or {@code Panic(0x..)}. */
    public String decodeRevert(String revertData) {
        if (revertData == null || revertData.length() < 10) {
            return "reverted without data";
        }
        String selector = revertData.substring(0, 10).toLowerCase();
        String payload = "0x" + revertData.substring(10);
        if (selector.equals(ERROR_STRING_SELECTOR)) {
            List<Type> decoded = FunctionReturnDecoder.decode(payload, List.of(cast(new TypeReference<Utf8String>() { })));
            return "Error: " + decoded.getFirst().getValue();
        }
        if (selector.equals(PANIC_SELECTOR)) {
            return "Panic(0x" + Numeric.toBigInt(payload).toString(16) + ")";
        }
        return Optional.ofNullable(errorsBySelector.get(selector)).orElse("unknown error " + selector);
    }

    public String snapshot() {
        return (String) raw("evm_snapshot");
    }

    /** Restores a snapshot; anvil forgets it afterwards, so take a new one to go back again. */
    public void revertTo(String snapshotId) {
        if (!Boolean.TRUE.equals(raw("evm_revert", snapshotId))) {
            throw new IllegalStateException("anvil has no snapshot " + snapshotId);
        }
    }

    public void increaseTime(long seconds) {
        raw("evm_increaseTime", seconds);
    }

    public void setNextBlockTimestamp(long epochSeconds) {
        raw("evm_setNextBlockTimestamp", epochSeconds);
    }

    public void mine() {
        raw("evm_mine");
    }

    /** With automine off, transactions wait in the pool until {@link #mine()}. */
    public void setAutomine(boolean enabled) {
        raw("evm_setAutomine", enabled);
    }

    public void setBalance(String address, BigInteger wei) {
        raw("anvil_setBalance", address, Numeric.toHexStringWithPrefix(wei));
    }

    public BigInteger latestBlockTimestamp() {
        return checked(web3j.ethGetBlockByNumber(DefaultBlockParameterName.LATEST, false)).getBlock().getTimestamp();
    }

    /** Any JSON-RPC method, for node features without a typed call here. */
    public Object raw(String method, Object... params) {
        Request<Object, AnyResponse> request = new Request<>(method, Arrays.asList(params), node.service(),
                AnyResponse.class);
        AnyResponse response = checked(request);
        if (response.hasError()) {
            throw new IllegalStateException(method + " failed: " + response.getError().getMessage());
        }
        return response.getResult();
    }

    private TransactionReceipt awaitReceipt(String hash) {
        try {
            return await().atMost(Duration.ofMillis(RECEIPT_TIMEOUT_MILLIS)).pollInterval(Duration.ofMillis(20))
                    .pollInSameThread()
                    .until(() -> checked(web3j.ethGetTransactionReceipt(hash)).getTransactionReceipt(), Optional::isPresent)
                    .get();
        } catch (ConditionTimeoutException e) {
            throw new IllegalStateException("no receipt for " + hash + " within " + RECEIPT_TIMEOUT_MILLIS + " ms");
        }
    }

    private ContractRevertedException reverted(Response.Error error) {
        String data = error.getData() == null ? null : firstHex(error.getData());
        if (data == null || data.length() < 10) {
            return new ContractRevertedException(error.getMessage(), data);
        }
        return new ContractRevertedException(decodeRevert(data), data);
    }

    private static String firstHex(String text) {
        Matcher matcher = HEX.matcher(text);
        return matcher.find() ? matcher.group() : null;
    }

    private static <T extends Response<?>> T checked(Request<?, T> request) {
        try {
            return request.send();
        } catch (IOException e) {
            throw new UncheckedIOException(request.getMethod() + " failed", e);
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static TypeReference<Type> cast(TypeReference<?> reference) {
        return (TypeReference) reference;
    }

    /** A response whose result is whatever JSON the node returned. */
    public static final class AnyResponse extends Response<Object> {
    }
}
