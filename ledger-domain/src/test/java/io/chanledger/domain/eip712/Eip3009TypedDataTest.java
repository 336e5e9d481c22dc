package io.chanledger.domain.eip712;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The facilitator's TransferWithAuthorization digests are viem's (the library x402's clients sign
 * with), and viem's signatures recover, under the contract's signature rule, to the {@code from}
 * they authorize; a changed field recovers to someone else.
 */
class Eip3009TypedDataTest {

    @Test
    void theUsdcDomainSeparatorIsViems() {
        JsonNode domain = Eip3009Vectors.root().path("domain");
        Eip3009TypedData typedData = Eip3009TypedData.usdc(domain.path("chainId").asLong(),
                domain.path("verifyingContract").asText());

        assertThat(Hex.encode(typedData.domainSeparator())).isEqualTo(Eip3009Vectors.root().path("domainSeparator").asText());
        assertThat(domain.path("name").asText()).isEqualTo(Eip3009TypedData.USDC_NAME);
        assertThat(domain.path("version").asText()).isEqualTo(Eip3009TypedData.USDC_VERSION);
    }

    @TestFactory
    Stream<DynamicTest> transferDigestsAreViemsAndRecoverToTheirSigner() {
        return Eip3009Vectors.authorizations().stream()
                .filter(v -> v.path("primaryType").asText().equals("TransferWithAuthorization"))
                .map(v -> DynamicTest.dynamicTest(v.path("id").asText(), () -> {
                    byte[] digest = digest(v, v.path("message").path("value").asText());
                    assertThat(Hex.encode(digest)).isEqualTo(v.path("digest").asText());
                    SignatureVerdict verdict = ContractSignatureRule.recover(digest, Hex.decode(v.path("signature").asText()));
                    assertThat(verdict).isInstanceOfSatisfying(SignatureVerdict.Recovered.class,
                            r -> assertThat(r.isSigner(v.path("message").path("from").asText())).isTrue());
                }));
    }

    @Test
    void anotherValueRecoversToSomeoneElse() {
        JsonNode v = Eip3009Vectors.authorization("transfer-as-x402-v2-signs");
        byte[] digest = digest(v, "10001");

        SignatureVerdict verdict = ContractSignatureRule.recover(digest, Hex.decode(v.path("signature").asText()));

        assertThat(verdict).isInstanceOfSatisfying(SignatureVerdict.Recovered.class,
                r -> assertThat(r.isSigner(v.path("message").path("from").asText())).isFalse());
    }

    private static byte[] digest(JsonNode vector, String value) {
        JsonNode domain = Eip3009Vectors.domainOf(vector);
        Eip3009TypedData typedData = new Eip3009TypedData(new Eip712Domain(domain.path("name").asText(),
                domain.path("version").asText(), domain.path("chainId").asLong(),
                domain.path("verifyingContract").asText()));
        JsonNode m = vector.path("message");
        return typedData.transferDigest(m.path("from").asText(), m.path("to").asText(), new BigInteger(value),
                new BigInteger(m.path("validAfter").asText()), new BigInteger(m.path("validBefore").asText()),
                m.path("nonce").asText());
    }
}
