package io.chanledger.chain.lookup;

import io.chanledger.chain.abi.ChannelContract;
import io.chanledger.chain.rpc.EthApi;
import io.chanledger.domain.channel.ChannelLookup;
import java.math.BigInteger;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;
import org.web3j.utils.Numeric;

/**
 * {@code getChannel} on the contract at the latest block. A node can still answer zeros right
 * after the {@code open} transaction (a load-balanced endpoint may route the call to a node a
 * block behind), so zeros are asked again a few times, briefly, before they count as "no such
 * channel". The call is pinned to the block number read just before it, so the answer says which
 * block it describes.
 */
public final class ContractChannelLookup implements ChannelLookup {

    private static final Pattern CHANNEL_ID = Pattern.compile("0x[0-9a-f]{64}");
    private static final String ZERO_ADDRESS = "0x0000000000000000000000000000000000000000";

    private final EthApi eth;
    private final String contract;
    private final int attempts;
    private final Duration pause;

    public ContractChannelLookup(EthApi eth, String contract, int attempts, Duration pause) {
        if (attempts < 1) {
            throw new IllegalArgumentException("at least one attempt");
        }
        this.eth = eth;
        this.contract = contract.toLowerCase(Locale.ROOT);
        this.attempts = attempts;
        this.pause = pause;
    }

    @Override
    public Optional<OnChainChannel> find(String channelId) {
        String id = channelId.toLowerCase(Locale.ROOT);
        if (!CHANNEL_ID.matcher(id).matches()) {
            return Optional.empty();
        }
        for (int attempt = 1; attempt <= attempts; attempt++) {
            long block = eth.blockNumber();
            String answer = eth.call(null, contract, ChannelContract.GET_CHANNEL_SELECTOR + id.substring(2), null,
                    Numeric.toHexStringWithPrefix(BigInteger.valueOf(block)));
            Optional<OnChainChannel> channel = decode(answer, block);
            if (channel.isPresent() || attempt == attempts) {
                return channel;
            }
            try {
                Thread.sleep(pause.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Optional.empty();
            }
        }
        return Optional.empty();
    }

    /** Five words: consumer, provider, deposit, claimed, expiry. All zero: unknown or deleted. */
    static Optional<OnChainChannel> decode(String answer, long block) {
        String data = answer.startsWith("0x") ? answer.substring(2) : answer;
        if (data.length() != 5 * 64) {
            throw new IllegalStateException("getChannel answered " + data.length() / 2 + " bytes, expected 160");
        }
        String consumer = "0x" + data.substring(24, 64).toLowerCase(Locale.ROOT);
        if (ZERO_ADDRESS.equals(consumer)) {
            return Optional.empty();
        }
        String provider = "0x" + data.substring(64 + 24, 128).toLowerCase(Locale.ROOT);
        BigInteger deposit = new BigInteger(data.substring(128, 192), 16);
        BigInteger claimed = new BigInteger(data.substring(192, 256), 16);
        BigInteger expiry = new BigInteger(data.substring(256, 320), 16);
        long expirySeconds = expiry.bitLength() < Long.SIZE ? expiry.longValue() : Long.MAX_VALUE;
        return Optional.of(new OnChainChannel(consumer, provider, deposit, claimed, expirySeconds, block));
    }
}
