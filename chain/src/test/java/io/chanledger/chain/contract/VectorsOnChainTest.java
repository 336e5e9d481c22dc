package io.chanledger.chain.contract;

import io.chanledger.domain.eip712.KnownAnswerVectors;

import static io.chanledger.testsupport.DevnetAccounts.CONSUMER_1;
import static io.chanledger.testsupport.DevnetAccounts.PROVIDER_1;
import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import io.chanledger.testsupport.AnvilNode;
import io.chanledger.testsupport.CallOutcome;
import io.chanledger.testsupport.ChannelSignatures;
import io.chanledger.testsupport.Devnet;
import io.chanledger.testsupport.OpenedChannel;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.web3j.protocol.core.methods.response.Log;
import org.web3j.protocol.core.methods.response.TransactionReceipt;
import org.web3j.utils.Numeric;

/**
 * The vectors replayed on a real contract: on a node whose clock starts just before the vectors'
 * timestamp, the vectors' wallets open their channels in one block at 1700000000, so the channel
 * ids, the domain and every signature case are exactly the vectors' own.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class VectorsOnChainTest {

    private static final long VECTOR_TIMESTAMP = 1_700_000_000L;
    private static final BigInteger VECTOR_DEPOSIT = BigInteger.valueOf(10_000_000);
    private static final long VECTOR_DURATION = 86_400;

    private AnvilNode node;
    private Devnet devnet;
    private final List<OpenedChannel> opened = new ArrayList<>();

    @BeforeAll
    void openTheVectorChannels() {
        node = AnvilNode.start("--timestamp", Long.toString(VECTOR_TIMESTAMP - 10_000));
        devnet = Devnet.deploy(node);
        devnet.approve(CONSUMER_1, devnet.channelAddress(), VECTOR_DEPOSIT.multiply(BigInteger.TWO));
        devnet.approve(PROVIDER_1, devnet.channelAddress(), VECTOR_DEPOSIT);

        devnet.rpc().setAutomine(false);
        List<String> hashes = List.of(
                devnet.submitOpen(CONSUMER_1, PROVIDER_1.getAddress(), VECTOR_DEPOSIT, VECTOR_DURATION),
                devnet.submitOpen(CONSUMER_1, PROVIDER_1.getAddress(), VECTOR_DEPOSIT, VECTOR_DURATION),
                devnet.submitOpen(PROVIDER_1, CONSUMER_1.getAddress(), VECTOR_DEPOSIT, VECTOR_DURATION));
        devnet.setNextBlockTimestamp(VECTOR_TIMESTAMP);
        devnet.mine();
        devnet.rpc().setAutomine(true);
        hashes.forEach(hash -> opened.add(devnet.openedIn(devnet.rpc().awaitSuccess(hash))));
    }

    @AfterAll
    void stopNode() {
        node.close();
    }

    @Test
    void reproducesTheVectorsChannelIds() {
        assertThat(opened).extracting(OpenedChannel::blockNumber).containsOnly(opened.getFirst().blockNumber());
        assertThat(opened).extracting(OpenedChannel::channelId).containsExactly(
                KnownAnswerVectors.byId("channelIds", "channel-1").path("channelId").asText(),
                KnownAnswerVectors.byId("channelIds", "channel-1-next-nonce").path("channelId").asText(),
                KnownAnswerVectors.byId("channelIds", "channel-roles-swapped").path("channelId").asText());
        assertThat(opened.getFirst().channelId()).isEqualTo(KnownAnswerVectors.root().path("channel").path("channelId").asText());
    }

    @Test
    void emitsTheOpenedLogOfTheVectors() {
        JsonNode vector = KnownAnswerVectors.byId("eventLogs", "opened").path("log");
        assertLogEquals(opened.getFirst().log(), vector);
    }

    @Test
    void usesTheVectorsDomainSeparator() {
        String expected = KnownAnswerVectors.root().path("domainSeparator").asText();
        assertThat(devnet.channelAddress()).isEqualToIgnoringCase(KnownAnswerVectors.root().path("domain").path("verifyingContract").asText());
        assertThat(Numeric.toHexString(devnet.domainSeparator())).isEqualTo(expected);
        assertThat(Numeric.toHexString(ChannelSignatures.domainSeparator(devnet.chainId(), devnet.channelAddress())))
                .isEqualTo(expected);
    }

    @Test
    void claimAcceptsExactlyTheVouchersTheVectorsAccept() {
        for (JsonNode vector : KnownAnswerVectors.list("vouchers")) {
            BigInteger amount = new BigInteger(vector.path("amount").asText());
            CallOutcome outcome = devnet.callClaim(PROVIDER_1.getAddress(), vector.path("channelId").asText(), amount,
                    new BigInteger(vector.path("nonce").asText()), Numeric.hexStringToByteArray(vector.path("signature").asText()));
            assertThat(outcome).as(vector.path("id").asText()).isEqualTo(expected(vector, amount));
        }
    }

    @Test
    void harnessDigestsMatchTheVectors() {
        byte[] domain = devnet.domainSeparator();
        JsonNode voucher = KnownAnswerVectors.byId("vouchers", "valid-v27");
        assertThat(Numeric.toHexString(ChannelSignatures.voucherDigest(domain, voucher.path("channelId").asText(),
                new BigInteger(voucher.path("amount").asText()), new BigInteger(voucher.path("nonce").asText()))))
                .isEqualTo(voucher.path("digest").asText());
        JsonNode close = KnownAnswerVectors.byId("closeAuthorizations", "valid-provider");
        assertThat(Numeric.toHexString(ChannelSignatures.closeAuthorizationDigest(domain, close.path("channelId").asText(),
                new BigInteger(close.path("finalAmount").asText()))))
                .isEqualTo(close.path("digest").asText());
    }

    @Test
    void cooperativeCloseAcceptsExactlyTheCloseAuthorizationsTheVectorsAccept() {
        for (JsonNode vector : KnownAnswerVectors.list("closeAuthorizations")) {
            BigInteger finalAmount = new BigInteger(vector.path("finalAmount").asText());
            CallOutcome outcome = devnet.callCooperativeClose(CONSUMER_1.getAddress(), vector.path("channelId").asText(),
                    finalAmount, Numeric.hexStringToByteArray(vector.path("signature").asText()));
            assertThat(outcome).as(vector.path("id").asText()).isEqualTo(expected(vector, finalAmount));
        }
    }

    @Test
    void cooperativeCloseWithTheVectorsAuthorizationEmitsTheVectorsLogs() {
        String snapshot = devnet.snapshot();
        try {
            JsonNode authorization = KnownAnswerVectors.byId("closeAuthorizations", "valid-provider");
            TransactionReceipt receipt = devnet.cooperativeClose(CONSUMER_1, authorization.path("channelId").asText(),
                    new BigInteger(authorization.path("finalAmount").asText()),
                    Numeric.hexStringToByteArray(authorization.path("signature").asText()));

            assertThat(devnet.eventNames(receipt)).containsExactly("FeePaid", "ChannelClaimed", "ChannelClosed");
            Log fee = devnet.logs(receipt, "FeePaid").getFirst();
            assertThat(fee.getTopics()).containsExactlyElementsOf(topics(KnownAnswerVectors.byId("eventLogs", "fee").path("log")));
            assertThat(Devnet.amountOf(fee)).isEqualTo(BigInteger.valueOf(15_000));
            assertLogEquals(devnet.logs(receipt, "ChannelClaimed").getFirst(), KnownAnswerVectors.byId("eventLogs", "claimed").path("log"));
            assertLogEquals(devnet.logs(receipt, "ChannelClosed").getFirst(), KnownAnswerVectors.byId("eventLogs", "closed").path("log"));
        } finally {
            devnet.revertTo(snapshot);
        }
    }

    /** Amount bounds are checked before the signature; within them, the vector's verdict decides. */
    private static CallOutcome expected(JsonNode vector, BigInteger amount) {
        if (amount.compareTo(VECTOR_DEPOSIT) > 0 || amount.signum() == 0) {
            return CallOutcome.reverted("InvalidAmount");
        }
        return vector.path("accept").asBoolean() ? CallOutcome.succeeded() : CallOutcome.reverted("InvalidSignature");
    }

    private static void assertLogEquals(Log log, JsonNode expected) {
        assertThat(log.getTopics()).containsExactlyElementsOf(topics(expected));
        assertThat(log.getData()).isEqualTo(expected.path("data").asText());
    }

    private static List<String> topics(JsonNode log) {
        List<String> topics = new ArrayList<>();
        log.path("topics").forEach(topic -> topics.add(topic.asText()));
        return topics;
    }
}
