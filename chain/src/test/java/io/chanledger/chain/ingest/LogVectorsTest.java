package io.chanledger.chain.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.chanledger.chain.abi.ChannelContract;
import io.chanledger.domain.chain.ChainRef;
import io.chanledger.domain.eip712.KnownAnswerVectors;
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
        assertThat(ChannelContract.CHANNEL_OPENED).isEqualTo(KnownAnswerVectors.byId("eventLogs", "opened").path("topic0").asText());
        assertThat(ChannelContract.CHANNEL_CLAIMED).isEqualTo(KnownAnswerVectors.byId("eventLogs", "claimed").path("topic0").asText());
        assertThat(ChannelContract.CHANNEL_CLOSED).isEqualTo(KnownAnswerVectors.byId("eventLogs", "closed").path("topic0").asText());
        assertThat(ChannelContract.FEE_PAID).isEqualTo(KnownAnswerVectors.byId("eventLogs", "fee").path("topic0").asText());
    }

    @Test
    void decodesTheOpenedVector() {
        JsonNode vector = KnownAnswerVectors.byId("eventLogs", "opened");
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
        JsonNode vector = KnownAnswerVectors.byId("eventLogs", "claimed");
        JsonNode expected = vector.path("decoded");

        ChannelLog.Claimed claimed = (ChannelLog.Claimed) ChannelLogDecoder.decode(log(vector));

        assertThat(claimed.channelId()).isEqualTo(lower(expected.path("channelId")));
        assertThat(claimed.provider()).isEqualTo(lower(expected.path("provider")));
        assertThat(claimed.amount()).isEqualTo(new BigInteger(expected.path("amount").asText()));
    }

    @Test
    void decodesTheClosedVector() {
        JsonNode vector = KnownAnswerVectors.byId("eventLogs", "closed");
        JsonNode expected = vector.path("decoded");

        ChannelLog.Closed closed = (ChannelLog.Closed) ChannelLogDecoder.decode(log(vector));

        assertThat(closed.channelId()).isEqualTo(lower(expected.path("channelId")));
        assertThat(closed.consumer()).isEqualTo(lower(expected.path("consumer")));
        assertThat(closed.refund()).isEqualTo(new BigInteger(expected.path("refund").asText()));
    }

    @Test
    void decodesTheFeeVector() {
        JsonNode vector = KnownAnswerVectors.byId("eventLogs", "fee");
        JsonNode expected = vector.path("decoded");

        ChannelLog.FeePaid fee = (ChannelLog.FeePaid) ChannelLogDecoder.decode(log(vector));

        assertThat(fee.channelId()).isEqualTo(lower(expected.path("channelId")));
        assertThat(fee.recipient()).isEqualTo(lower(expected.path("recipient")));
        assertThat(fee.amount()).isEqualTo(new BigInteger(expected.path("amount").asText()));
    }

    @Test
    void everyVectorDecodesToItsOwnEvent() {
        for (JsonNode vector : KnownAnswerVectors.list("eventLogs")) {
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
        Log swept = new Log(false, "0x0", "0x0", TX, BLOCK, "0x1", "0x00", "0x",
                null, List.of(ChannelContract.topic("Swept(address,uint256)"), "0x" + "00".repeat(32)));
        Log unknown = new Log(false, "0x0", "0x0", TX, BLOCK, "0x1", "0x00", "0x",
                null, List.of(ChannelContract.topic("Surprise(uint256)")));

        assertThat(ChannelLogDecoder.decode(swept)).isEqualTo(new DecodedLog.Skipped(
                ChannelContract.topic("Swept(address,uint256)"), true));
        assertThat(ChannelLogDecoder.decode(unknown)).isEqualTo(new DecodedLog.Skipped(
                ChannelContract.topic("Surprise(uint256)"), false));
    }

    private static Log settingsLog(String topic0, List<String> indexed, String data) {
        List<String> topics = new ArrayList<>(List.of(topic0));
        topics.addAll(indexed);
        return new Log(false, "0x3", "0x2", TX, BLOCK, "0x65", "0x5fbdb2315678afecb367f032d93f642f64180aa3", data,
                null, topics);
    }

    private static String addressWord(String address) {
        return "0x" + "00".repeat(12) + address.substring(2);
    }

    private static final String RECIPIENT = "0xaa6a842922b7f440567bed28ec36608ab38af7e2";
    private static final String OLD_TOKEN = "0xe7f1725e7734ce288f8367e1bb143e90bb3f0512";
    private static final String NEW_TOKEN = "0x9fe46736679d2d9a65f0992f2272de9f3c7fa6e0";
    private static final String FEE_500 = "0x" + "0".repeat(61) + "1f4";

    @Test
    void decodesAFeeUpdateWithItsRecipientIndexedOrNot() {
        ContractLog.FeeUpdated expected = new ContractLog.FeeUpdated(RECIPIENT, BigInteger.valueOf(500),
                new ChainRef(101, BLOCK, TX, 3));

        assertThat(ChannelLogDecoder.decode(settingsLog(ChannelContract.FEE_UPDATED, List.of(addressWord(RECIPIENT)),
                FEE_500))).isEqualTo(expected);
        assertThat(ChannelLogDecoder.decode(settingsLog(ChannelContract.FEE_UPDATED, List.of(),
                addressWord(RECIPIENT) + FEE_500.substring(2)))).isEqualTo(expected);
    }

    @Test
    void decodesATokenUpdateWithItsAddressesIndexedOrNot() {
        ContractLog.UsdcUpdated expected = new ContractLog.UsdcUpdated(OLD_TOKEN, NEW_TOKEN,
                new ChainRef(101, BLOCK, TX, 3));

        assertThat(ChannelLogDecoder.decode(settingsLog(ChannelContract.USDC_UPDATED,
                List.of(addressWord(OLD_TOKEN), addressWord(NEW_TOKEN)), "0x"))).isEqualTo(expected);
        assertThat(ChannelLogDecoder.decode(settingsLog(ChannelContract.USDC_UPDATED, List.of(),
                addressWord(OLD_TOKEN) + addressWord(NEW_TOKEN).substring(2)))).isEqualTo(expected);
    }

    @Test
    void refusesSettingsLogsOfNeitherLayout() {
        Log feeWithoutData = settingsLog(ChannelContract.FEE_UPDATED, List.of(addressWord(RECIPIENT)), "0x");
        Log feeRecipientNotAnAddress = settingsLog(ChannelContract.FEE_UPDATED, List.of(),
                "0x" + "ff".repeat(32) + FEE_500.substring(2));
        Log tokenHalfIndexed = settingsLog(ChannelContract.USDC_UPDATED, List.of(addressWord(OLD_TOKEN)),
                addressWord(NEW_TOKEN));

        for (Log malformed : List.of(feeWithoutData, feeRecipientNotAnAddress, tokenHalfIndexed)) {
            assertThatThrownBy(() -> ChannelLogDecoder.decode(malformed))
                    .isInstanceOf(ChannelLogDecoder.MalformedLogException.class);
        }
    }

    @Test
    void refusesAKnownEventWithTheWrongShape() {
        JsonNode vector = KnownAnswerVectors.byId("eventLogs", "claimed");
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
