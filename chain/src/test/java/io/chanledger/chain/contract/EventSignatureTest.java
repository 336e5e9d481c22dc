package io.chanledger.chain.contract;

import io.chanledger.domain.eip712.KnownAnswerVectors;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import io.chanledger.testsupport.ContractArtifact;
import org.junit.jupiter.api.Test;
import org.web3j.crypto.Hash;

/** The compiled contract's events are the ones docs/protocol.md §A.2 and the log vectors name. */
class EventSignatureTest {

    private static final ContractArtifact CHANNEL = ContractArtifact.load("ChanChannel");

    @Test
    void logVectorsTopic0IsTheKeccakOfTheContractsEventSignature() {
        for (JsonNode vector : KnownAnswerVectors.list("eventLogs")) {
            String signature = vector.path("signature").asText();
            assertThat(CHANNEL.eventSignatures()).as(vector.path("id").asText()).contains(signature);
            assertThat(Hash.sha3String(signature)).as(signature).isEqualTo(vector.path("topic0").asText());
            assertThat(vector.path("log").path("topics").get(0).asText()).isEqualTo(vector.path("topic0").asText());
        }
    }

    @Test
    void indexedParametersMatchTheLogVectors() {
        for (JsonNode vector : KnownAnswerVectors.list("eventLogs")) {
            List<String> expected = new ArrayList<>();
            vector.path("indexed").forEach(name -> expected.add(name.asText()));
            assertThat(indexedInputs(vector.path("event").asText())).as(vector.path("id").asText())
                    .isEqualTo(expected);
        }
    }

    @Test
    void declaresExactlyTheProtocolsEvents() {
        assertThat(CHANNEL.eventSignatures()).containsExactlyInAnyOrder(
                "ChannelOpened(bytes32,address,address,uint256,uint256)",
                "ChannelClaimed(bytes32,address,uint256)",
                "ChannelClosed(bytes32,address,uint256)",
                "FeePaid(bytes32,address,uint256)",
                "FeeUpdated(address,uint256)",
                "USDCUpdated(address,address)",
                "OwnershipRenounced(address)");
    }

    @Test
    void declaresTheErrorsTheGatewayClassifies() {
        assertThat(CHANNEL.errorSignatures()).contains("InvalidAmount()", "ChannelNotFound()", "InvalidSignature()",
                "NotProvider()", "NotConsumer()", "NotExpired()");
    }

    private static List<String> indexedInputs(String eventName) {
        List<String> names = new ArrayList<>();
        for (JsonNode entry : CHANNEL.abi()) {
            if ("event".equals(entry.path("type").asText()) && eventName.equals(entry.path("name").asText())) {
                entry.path("inputs").forEach(input -> {
                    if (input.path("indexed").asBoolean()) {
                        names.add(input.path("name").asText());
                    }
                });
            }
        }
        return names;
    }
}
