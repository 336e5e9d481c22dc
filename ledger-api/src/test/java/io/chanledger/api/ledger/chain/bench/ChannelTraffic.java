package io.chanledger.api.ledger.chain.bench;

import io.chanledger.chain.abi.ChannelContract;
import io.chanledger.testsupport.ChannelSignatures;
import io.chanledger.testsupport.Devnet;
import io.chanledger.testsupport.DevnetAccounts;
import io.chanledger.chain.rpc.EthApi;
import io.chanledger.chain.rpc.JsonRpcClient;
import io.chanledger.chain.rpc.RetryPolicy;
import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.web3j.abi.FunctionEncoder;
import org.web3j.abi.datatypes.Address;
import org.web3j.abi.datatypes.DynamicBytes;
import org.web3j.abi.datatypes.Function;
import org.web3j.abi.datatypes.Type;
import org.web3j.abi.datatypes.generated.Bytes32;
import org.web3j.abi.datatypes.generated.Uint256;
import org.web3j.crypto.Credentials;
import org.web3j.crypto.RawTransaction;
import org.web3j.crypto.TransactionEncoder;
import org.web3j.protocol.core.methods.response.EthSendTransaction;
import org.web3j.protocol.core.methods.response.Log;
import org.web3j.utils.Numeric;

/**
 * Fills a devnet with channel traffic the way a busy chain carries it: many transactions per
 * block. Channel i is opened by consumer i mod 20 for provider i mod 5 with 1 USDC; even
 * channels have no duration (expired at once), odd ones a year. Every channel is claimed at
 * 0.4 USDC; even channels are then closed by the consumer, odd ones cooperatively at 0.7 USDC.
 * That is 4 channel logs per even channel and 6 per odd one.
 */
final class ChannelTraffic {

    static final BigInteger DEPOSIT = BigInteger.valueOf(1_000_000);
    static final BigInteger CLAIM = BigInteger.valueOf(400_000);
    static final BigInteger FINAL_AMOUNT = BigInteger.valueOf(700_000);
    private static final int CONSUMERS = 20;
    private static final int PROVIDERS = 5;
    private static final int SEND_CHUNK = 2_000;
    private static final BigInteger GAS = BigInteger.valueOf(300_000);
    private static final BigInteger MAX_FEE = BigInteger.valueOf(10_000_000_000L);

    private final Devnet devnet;
    private final EthApi eth;
    private final List<Credentials> consumers = new ArrayList<>();
    private final List<Credentials> providers = new ArrayList<>();
    private final Map<String, BigInteger> nonces = new HashMap<>();
    private final byte[] domainSeparator;

    ChannelTraffic(Devnet devnet) {
        this.devnet = devnet;
        this.eth = new EthApi(new JsonRpcClient(devnet.rpcUrl(), Duration.ofSeconds(60), RetryPolicy.defaults(), 200,
                pause -> Thread.sleep(pause.toMillis())));
        this.domainSeparator = ChannelSignatures.domainSeparator(devnet.chainId(), devnet.channelAddress());
        IntStream.range(0, CONSUMERS).forEach(i -> consumers.add(DevnetAccounts.labelled("bench-consumer-" + i)));
        IntStream.range(0, PROVIDERS).forEach(i -> providers.add(DevnetAccounts.labelled("bench-provider-" + i)));
    }

    /** Opens, claims and closes {@code channels} channels; returns their ids in channel order. */
    List<String> run(int channels) {
        fundParticipants(channels);
        devnet.rpc().setAutomine(false);
        try {
            List<Signed> opens = signAll(channels, i -> {
                long duration = i % 2 == 0 ? 0 : 31_536_000;
                return new Call(consumer(i), encode("open", new Address(provider(i).getAddress()), new Uint256(DEPOSIT),
                        new Uint256(duration)));
            });
            long firstBlock = eth.blockNumber() + 1;
            submitAndMine(opens);
            List<String> ids = channelIds(channels, firstBlock);
            submitAndMine(signAll(channels, i -> new Call(provider(i), encode("claim", bytes32(ids.get(i)),
                    new Uint256(CLAIM), new Uint256(BigInteger.ONE), new DynamicBytes(ChannelSignatures.sign(
                            ChannelSignatures.voucherDigest(domainSeparator, ids.get(i), CLAIM, BigInteger.ONE),
                            consumer(i)))))));
            submitAndMine(signAll(channels, i -> i % 2 == 0
                    ? new Call(consumer(i), encode("close", bytes32(ids.get(i))))
                    : new Call(consumer(i), encode("cooperativeClose", bytes32(ids.get(i)), new Uint256(FINAL_AMOUNT),
                            new DynamicBytes(ChannelSignatures.sign(ChannelSignatures.closeAuthorizationDigest(
                                    domainSeparator, ids.get(i), FINAL_AMOUNT), provider(i)))))));
            return ids;
        } finally {
            devnet.rpc().setAutomine(true);
        }
    }

    static long expectedLogs(int channels) {
        long even = (channels + 1) / 2;
        return even * 4 + (channels - even) * 6;
    }

    private record Call(Credentials from, String data) {
    }

    private record Signed(String rawHex) {
    }

    private Credentials consumer(int channel) {
        return consumers.get(channel % CONSUMERS);
    }

    private Credentials provider(int channel) {
        return providers.get(channel % PROVIDERS);
    }

    private void fundParticipants(int channels) {
        BigInteger perConsumer = DEPOSIT.multiply(BigInteger.valueOf(channels / CONSUMERS + 1));
        for (Credentials wallet : consumers) {
            devnet.setBalance(wallet.getAddress(), Devnet.GAS_MONEY.multiply(BigInteger.valueOf(10_000)));
            devnet.mint(wallet.getAddress(), perConsumer);
            devnet.approve(wallet, devnet.channelAddress(), perConsumer);
        }
        for (Credentials wallet : providers) {
            devnet.setBalance(wallet.getAddress(), Devnet.GAS_MONEY.multiply(BigInteger.valueOf(10_000)));
        }
    }

    /** Signs every channel's call with its sender's next nonce, on all cores. */
    private List<Signed> signAll(int channels, java.util.function.IntFunction<Call> call) {
        List<Call> calls = IntStream.range(0, channels).mapToObj(call).toList();
        List<BigInteger> callNonces = new ArrayList<>(channels);
        for (Call c : calls) {
            BigInteger next = nonces.computeIfAbsent(c.from().getAddress(), a -> eth.transactionCount(a, "pending"));
            callNonces.add(next);
            nonces.put(c.from().getAddress(), next.add(BigInteger.ONE));
        }
        return IntStream.range(0, channels).parallel().mapToObj(i -> {
            RawTransaction raw = RawTransaction.createTransaction(devnet.chainId(), callNonces.get(i), GAS,
                    devnet.channelAddress(), BigInteger.ZERO, calls.get(i).data(), BigInteger.ZERO, MAX_FEE);
            return new Signed(Numeric.toHexString(TransactionEncoder.signMessage(raw, calls.get(i).from())));
        }).toList();
    }

    private void submitAndMine(List<Signed> transactions) {
        for (int start = 0; start < transactions.size(); start += SEND_CHUNK) {
            List<List<?>> params = transactions.subList(start, Math.min(transactions.size(), start + SEND_CHUNK))
                    .stream().<List<?>>map(t -> List.of(t.rawHex())).toList();
            for (EthSendTransaction sent : eth.client().batch("eth_sendRawTransaction", params, EthSendTransaction.class)) {
                if (sent.getTransactionHash() == null) {
                    throw new IllegalStateException("a transaction was refused: " + sent.getRawResponse());
                }
            }
            while (pending() > 0) {
                devnet.mine();
            }
        }
    }

    private long pending() {
        Object status = devnet.rpc().raw("txpool_status");
        Object pending = ((Map<?, ?>) status).get("pending");
        return Numeric.toBigInt(pending.toString()).longValueExact();
    }

    /** Ids from the ChannelOpened logs: each consumer's opens appear in the order of its channels. */
    private List<String> channelIds(int channels, long fromBlock) {
        Map<String, List<String>> byConsumer = new HashMap<>();
        long head = eth.blockNumber();
        for (long from = fromBlock; from <= head; from += 100) {
            for (Log log : eth.logs(devnet.channelAddress(), from, Math.min(head, from + 99))) {
                if (ChannelContract.CHANNEL_OPENED.equals(log.getTopics().getFirst())) {
                    String consumer = "0x" + log.getTopics().get(2).substring(26);
                    byConsumer.computeIfAbsent(consumer, c -> new ArrayList<>()).add(log.getTopics().get(1));
                }
            }
        }
        List<String> ids = new ArrayList<>(channels);
        for (int i = 0; i < channels; i++) {
            ids.add(byConsumer.get(consumer(i).getAddress()).get(i / CONSUMERS));
        }
        return ids;
    }

    private static Bytes32 bytes32(String hex) {
        return new Bytes32(Numeric.hexStringToByteArray(hex));
    }

    private static String encode(String function, Type<?>... args) {
        return FunctionEncoder.encode(new Function(function, List.of(args), List.of()));
    }
}
