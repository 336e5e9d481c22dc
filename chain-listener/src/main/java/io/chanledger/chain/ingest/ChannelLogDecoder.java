package io.chanledger.chain.ingest;

import io.chanledger.chain.abi.ChannelContract;
import io.chanledger.domain.chain.ChainRef;
import java.math.BigInteger;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import org.web3j.protocol.core.methods.response.Log;

/**
 * Decodes the channel contract's logs by topic0. A log carrying a known topic but the wrong shape
 * (topic count, data length, an address word with high bits set) is not decoded loosely: it is
 * rejected, since it means the node or the configured address is not what the ledger expects.
 */
public final class ChannelLogDecoder {

    private static final Pattern WORD = Pattern.compile("0x[0-9a-f]{64}");
    private static final String ADDRESS_PADDING = "0x000000000000000000000000";

    private ChannelLogDecoder() {
    }

    /** Thrown for a log of a known event whose encoding does not match the event's signature. */
    public static final class MalformedLogException extends RuntimeException {
        MalformedLogException(String message) {
            super(message);
        }
    }

    public static DecodedLog decode(Log log) {
        List<String> topics = log.getTopics() == null ? List.of() : log.getTopics().stream().map(ChannelLogDecoder::lower).toList();
        if (topics.isEmpty()) {
            return new DecodedLog.Skipped(null, false);
        }
        String topic0 = topics.getFirst();
        if (ChannelContract.CHANNEL_OPENED.equals(topic0)) {
            List<BigInteger> data = words(log, topics, 4, 2);
            return new ChannelLog.Opened(word(topics.get(1)), address(topics.get(2)), address(topics.get(3)),
                    data.get(0), data.get(1), chainRef(log));
        }
        if (ChannelContract.CHANNEL_CLAIMED.equals(topic0)) {
            List<BigInteger> data = words(log, topics, 3, 1);
            return new ChannelLog.Claimed(word(topics.get(1)), address(topics.get(2)), data.getFirst(), chainRef(log));
        }
        if (ChannelContract.CHANNEL_CLOSED.equals(topic0)) {
            List<BigInteger> data = words(log, topics, 3, 1);
            return new ChannelLog.Closed(word(topics.get(1)), address(topics.get(2)), data.getFirst(), chainRef(log));
        }
        if (ChannelContract.FEE_PAID.equals(topic0)) {
            List<BigInteger> data = words(log, topics, 3, 1);
            return new ChannelLog.FeePaid(word(topics.get(1)), address(topics.get(2)), data.getFirst(), chainRef(log));
        }
        return new DecodedLog.Skipped(topic0, ChannelContract.ADMIN_EVENTS.contains(topic0));
    }

    private static List<BigInteger> words(Log log, List<String> topics, int topicCount, int dataWords) {
        if (topics.size() != topicCount) {
            throw new MalformedLogException("log " + describe(log) + " has " + topics.size() + " topics, expected " + topicCount);
        }
        topics.forEach(ChannelLogDecoder::word);
        String data = lower(log.getData());
        if (data == null || !data.matches("0x[0-9a-f]{" + 64 * dataWords + "}")) {
            throw new MalformedLogException("log " + describe(log) + " carries data of the wrong length");
        }
        BigInteger first = new BigInteger(data.substring(2, 66), 16);
        return dataWords == 1 ? List.of(first) : List.of(first, new BigInteger(data.substring(66, 130), 16));
    }

    private static String word(String topic) {
        if (topic == null || !WORD.matcher(topic).matches()) {
            throw new MalformedLogException("topic " + topic + " is not a 32-byte word");
        }
        return topic;
    }

    private static String address(String topic) {
        if (!word(topic).startsWith(ADDRESS_PADDING)) {
            throw new MalformedLogException("topic " + topic + " is not an address");
        }
        return "0x" + topic.substring(ADDRESS_PADDING.length());
    }

    private static ChainRef chainRef(Log log) {
        try {
            return new ChainRef(log.getBlockNumber().longValueExact(), lower(log.getBlockHash()),
                    lower(log.getTransactionHash()), log.getLogIndex().intValueExact());
        } catch (RuntimeException e) {
            throw new MalformedLogException("log " + describe(log) + " lacks its position: " + e.getMessage());
        }
    }

    private static String describe(Log log) {
        return log.getTransactionHash() + "#" + log.getLogIndexRaw();
    }

    private static String lower(String text) {
        return text == null ? null : text.toLowerCase(Locale.ROOT);
    }
}
