package io.chanledger.chain.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.chanledger.chain.abi.ChannelContract;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.web3j.protocol.core.methods.response.Log;

class LogVectorsTest {

    private static final String TX = "0x" + "ab".repeat(32);
    private static final String BLOCK = "0x" + "cd".repeat(32);

    private static Log log(JsonNode vector) {
        List<String> topics = new ArrayList<>();
        vector.path("log").path("topics").forEach(t -> topics.add(t.asText()));
        return new Log(false, "0x7", "0x2", TX, BLOCK, "0x64", "0x5fbdb2315678afecb367f032d93f642f64180aa3",
                vector.path("log").path("data").asText(), null, topics);
    }

    private static String lower(JsonNode node) {
        return node.asText().toLowerCase(Locale.ROOT);
    }

    @Test
    void topicsAreTheVectorsTopic0s() {
        assertThat(ChannelContract.CHANNEL_OPENED).isEqualTo(SharedVectors.byId("eventLogs", "opened").path("topic0").asText());
        assertThat(ChannelContract.CHANNEL_CLAIMED).isEqualTo(SharedVectors.byId("eventLogs", "claimed").path("topic0").asText());
        assertThat(ChannelContract.CHANNEL_CLOSED).isEqualTo(SharedVectors.byId("eventLogs", "closed").path("topic0").asText());
        assertThat(ChannelContract.FEE_PAID).isEqualTo(SharedVectors.byId("eventLogs", "fee").path("topic0").asText());
    }

    @Test
    void decodesTheOpenedVector() {
        JsonNode vector = SharedVectors.byId("eventLogs", "opened");
        JsonNode expected = vector.path("decoded");

        ChannelLog.Opened opened = (ChannelLog.Opened) ChannelLogDecoder.decode(log(vector));

        assertThat(opened.channelId()).isEqualTo(lower(expected.path("channelId")));
        assertThat(opened.consumer()).isEqualTo(lower(expected.path("consumer")));
        assertThat(opened.provider()).isEqualTo(lower(expected.path("provider")));
        assertThat(opened.deposit()).isEqualTo(new BigInteger(expected.path("deposit").asText()));
        assertThat(opened.expiry()).isEqualTo(new BigInteger(expected.path("expiry").asText()));
        assertThat(opened.expirySeconds()).isEqualTo(Long.parseLong(expected.path("expiry").asText()));
        assertThat(opened.chainRef().blockNumber()).isEqualTo(100);
        assertThat(opened.chainRef().blockHash()).isEqualTo(BLOCK);
        assertThat(opened.chainRef().txHash()).isEqualTo(TX);
        assertThat(opened.chainRef().logIndex()).isEqualTo(7);
    }

    @Test
    void decodesTheClaimedVector() {
        JsonNode vector = SharedVectors.byId("eventLogs", "claimed");
        JsonNode expected = vector.path("decoded");

        ChannelLog.Claimed claimed = (ChannelLog.Claimed) ChannelLogDecoder.decode(log(vector));

        assertThat(claimed.channelId()).isEqualTo(lower(expected.path("channelId")));
        assertThat(claimed.provider()).isEqualTo(lower(expected.path("provider")));
        assertThat(claimed.amount()).isEqualTo(new BigInteger(expected.path("amount").asText()));
    }

    @Test
    void decodesTheClosedVector() {
        JsonNode vector = SharedVectors.byId("eventLogs", "closed");
        JsonNode expected = vector.path("decoded");

        ChannelLog.Closed closed = (ChannelLog.Closed) ChannelLogDecoder.decode(log(vector));

        assertThat(closed.channelId()).isEqualTo(lower(expected.path("channelId")));
        assertThat(closed.consumer()).isEqualTo(lower(expected.path("consumer")));
        assertThat(closed.refund()).isEqualTo(new BigInteger(expected.path("refund").asText()));
    }

    @Test
    void decodesTheFeeVector() {
        JsonNode vector = SharedVectors.byId("eventLogs", "fee");
        JsonNode expected = vector.path("decoded");

        ChannelLog.FeePaid fee = (ChannelLog.FeePaid) ChannelLogDecoder.decode(log(vector));

        assertThat(fee.channelId()).isEqualTo(lower(expected.path("channelId")));
        assertThat(fee.recipient()).isEqualTo(lower(expected.path("recipient")));
        assertThat(fee.amount()).isEqualTo(new BigInteger(expected.path("amount").asText()));
    }

    @Test
    void everyVectorDecodesToItsOwnEvent() {
        for (JsonNode vector : SharedVectors.list("eventLogs")) {
            DecodedLog decoded = ChannelLogDecoder.decode(log(vector));
            assertThat(decoded.getClass().getSimpleName()).as(vector.path("id").asText())
                    .isEqualTo(switch (vector.path("event").asText()) {
                        case "ChannelOpened" -> "Opened";
                        case "ChannelClaimed" -> "Claimed";
                        case "ChannelClosed" -> "Closed";
                        case "FeePaid" -> "FeePaid";
                        default -> throw new AssertionError("unexpected event " + vector.path("event"));
                    });
        }
    }

    @Test
    void skipsAdministrativeAndUnknownTopicsTellingThemApart() {
        Log feeUpdated = new Log(false, "0x0", "0x0", TX, BLOCK, "0x1", "0x00", "0x",
                null, List.of(ChannelContract.topic("FeeUpdated(address,uint256)"), "0x" + "00".repeat(32)));
        Log unknown = new Log(false, "0x0", "0x0", TX, BLOCK, "0x1", "0x00", "0x",
                null, List.of(ChannelContract.topic("Surprise(uint256)")));

        assertThat(ChannelLogDecoder.decode(feeUpdated)).isEqualTo(new DecodedLog.Skipped(
                ChannelContract.topic("FeeUpdated(address,uint256)"), true));
        assertThat(ChannelLogDecoder.decode(unknown)).isEqualTo(new DecodedLog.Skipped(
                ChannelContract.topic("Surprise(uint256)"), false));
    }

    @Test
    void refusesAKnownEventWithTheWrongShape() {
        JsonNode vector = SharedVectors.byId("eventLogs", "claimed");
        Log truncated = log(vector);
        truncated.setData("0x1234");
        Log dirtyAddress = log(vector);
        List<String> topics = new ArrayList<>(dirtyAddress.getTopics());
        topics.set(2, "0xff" + topics.get(2).substring(4));
        dirtyAddress.setTopics(topics);

        assertThatThrownBy(() -> ChannelLogDecoder.decode(truncated))
                .isInstanceOf(ChannelLogDecoder.MalformedLogException.class);
        assertThatThrownBy(() -> ChannelLogDecoder.decode(dirtyAddress))
                .isInstanceOf(ChannelLogDecoder.MalformedLogException.class);
    }
}
