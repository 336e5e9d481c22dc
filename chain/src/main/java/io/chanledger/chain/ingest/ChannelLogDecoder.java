package io.chanledger.chain.ingest;

import io.chanledger.chain.abi.ChannelContract;
import io.chanledger.domain.chain.ChainRef;
import java.math.BigInteger;
import java.util.ArrayList;
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
            List<String> data = data(log, topics, 4, 2);
            return new ChannelLog.Opened(word(topics.get(1)), address(topics.get(2)), address(topics.get(3)),
                    uint(data.get(0)), uint(data.get(1)), chainRef(log));
        }
        if (ChannelContract.CHANNEL_CLAIMED.equals(topic0)) {
            List<String> data = data(log, topics, 3, 1);
            return new ChannelLog.Claimed(word(topics.get(1)), address(topics.get(2)), uint(data.getFirst()), chainRef(log));
        }
        if (ChannelContract.CHANNEL_CLOSED.equals(topic0)) {
            List<String> data = data(log, topics, 3, 1);
            return new ChannelLog.Closed(word(topics.get(1)), address(topics.get(2)), uint(data.getFirst()), chainRef(log));
        }
        if (ChannelContract.FEE_PAID.equals(topic0)) {
            List<String> data = data(log, topics, 3, 1);
            return new ChannelLog.FeePaid(word(topics.get(1)), address(topics.get(2)), uint(data.getFirst()), chainRef(log));
        }
        // The settings events come in two layouts with the same topic0: docs/protocol.md §A.2 declares their
        // addresses indexed, a contract declaring nothing indexed logs every parameter as data.
        // Both are exact encodings of the signature; the topic count tells them apart.
        if (ChannelContract.FEE_UPDATED.equals(topic0)) {
            if (topics.size() == 1) {
                List<String> data = data(log, topics, 1, 2);
                return new ContractLog.FeeUpdated(address(data.get(0)), uint(data.get(1)), chainRef(log));
            }
            List<String> data = data(log, topics, 2, 1);
            return new ContractLog.FeeUpdated(address(topics.get(1)), uint(data.getFirst()), chainRef(log));
        }
        if (ChannelContract.USDC_UPDATED.equals(topic0)) {
            if (topics.size() == 1) {
                List<String> data = data(log, topics, 1, 2);
                return new ContractLog.UsdcUpdated(address(data.get(0)), address(data.get(1)), chainRef(log));
            }
            data(log, topics, 3, 0);
            return new ContractLog.UsdcUpdated(address(topics.get(1)), address(topics.get(2)), chainRef(log));
        }
        return new DecodedLog.Skipped(topic0, ChannelContract.ADMIN_EVENTS.contains(topic0));
    }

    /** Checks the topic count and every topic's form, and returns the data's 32-byte words as 0x-hex. */
    private static List<String> data(Log log, List<String> topics, int topicCount, int dataWords) {
        if (topics.size() != topicCount) {
            throw new MalformedLogException("log " + describe(log) + " has " + topics.size() + " topics, expected " + topicCount);
        }
        topics.forEach(ChannelLogDecoder::word);
        String data = lower(log.getData());
        if (data == null || !data.matches("0x[0-9a-f]{" + 64 * dataWords + "}")) {
            throw new MalformedLogException("log " + describe(log) + " carries data of the wrong length");
        }
        List<String> words = new ArrayList<>(dataWords);
        for (int i = 0; i < dataWords; i++) {
            words.add("0x" + data.substring(2 + 64 * i, 66 + 64 * i));
        }
        return words;
    }

    private static BigInteger uint(String word) {
        return new BigInteger(word.substring(2), 16);
    }

    private static String word(String topic) {
        if (topic == null || !WORD.matcher(topic).matches()) {
            throw new MalformedLogException(topic + " is not a 32-byte word");
        }
        return topic;
    }

    /** An address in a 32-byte word (a topic or a data word): twelve zero bytes, then the address. */
    private static String address(String word) {
        if (!word(word).startsWith(ADDRESS_PADDING)) {
            throw new MalformedLogException("word " + word + " is not an address");
        }
        return "0x" + word.substring(ADDRESS_PADDING.length());
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
