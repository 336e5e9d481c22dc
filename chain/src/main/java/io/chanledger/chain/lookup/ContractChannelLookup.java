package io.chanledger.chain.lookup;

import io.chanledger.chain.abi.ChannelContract;
import io.chanledger.chain.rpc.EthApi;
import io.chanledger.domain.channel.ChannelLookup;
import io.chanledger.domain.channel.OnChainChannel;
import java.math.BigInteger;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;
import org.web3j.utils.Numeric;

/**
 * {@code getChannel} on the contract at the latest block: one {@code eth_blockNumber} and one
 * {@code eth_call}, pinned to that block so the answer says which block it describes. Zeros are a
 * definitive "no such channel" and are not asked again: anyone can send vouchers for ids that
 * never existed, and each repetition would be paid for in node calls. Transport failures are
 * retried by the {@link EthApi}'s client; a channel opened a moment after a "not on chain" answer
 * is found by the next look-up (callers keep such answers only briefly).
 */
public final class ContractChannelLookup implements ChannelLookup {

    private static final Pattern CHANNEL_ID = Pattern.compile("0x[0-9a-f]{64}");
    private static final String ZERO_ADDRESS = "0x0000000000000000000000000000000000000000";

    private final EthApi eth;
    private final String contract;

    public ContractChannelLookup(EthApi eth, String contract) {
        this.eth = eth;
        this.contract = contract.toLowerCase(Locale.ROOT);
    }

    @Override
    public Optional<OnChainChannel> find(String channelId) {
        String id = channelId.toLowerCase(Locale.ROOT);
        if (!CHANNEL_ID.matcher(id).matches()) {
            return Optional.empty();
        }
        long block = eth.blockNumber();
        String answer = eth.call(null, contract, ChannelContract.GET_CHANNEL_SELECTOR + id.substring(2), null,
                Numeric.toHexStringWithPrefix(BigInteger.valueOf(block)));
        return decode(answer, block);
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
