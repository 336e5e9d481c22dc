package io.chanledger.domain.eip712;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

class DigestSignerTest {

    private static final BigInteger HALF_N =
            new BigInteger("7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0", 16);

    @Test
    void signaturesRecoverToTheSignerAndAreLowSWithV27Or28() {
        Random random = new Random(20261121);
        for (int i = 0; i < 50; i++) {
            DigestSigner signer = new DigestSigner(randomKey(random));
            byte[] digest = new byte[32];
            random.nextBytes(digest);
            byte[] signature = signer.sign(digest);

            assertThat(signature).hasSize(65);
            assertThat(new BigInteger(1, Arrays.copyOfRange(signature, 32, 64))).isLessThanOrEqualTo(HALF_N);
            assertThat(signature[64] & 0xff).isIn(27, 28);
            assertThat(ContractSignatureRule.recover(digest, signature))
                    .isEqualTo(new SignatureVerdict.Recovered(signer.address()));
        }
    }

    @Test
    void signingIsDeterministic() {
        DigestSigner signer = new DigestSigner(Hex.decode(KnownAnswerVectors.privateKeyOf("consumer-1"), 32));
        byte[] digest = new byte[32];
        assertThat(signer.sign(digest)).isEqualTo(signer.sign(digest.clone()));
    }

    /** ethers signs with RFC 6979 as well, so each untampered vector signature is reproduced byte for byte. */
    @TestFactory
    Stream<DynamicTest> reproducesTheVectorSignatures() {
        return Eip712VectorsTest.signatureCases().stream()
                .filter(c -> c.path("mutation").isNull())
                .map(c -> KnownAnswerVectors.caseTest(c.path("id").asText(), c.path("id").asText(), () -> {
                    DigestSigner signer = new DigestSigner(
                            Hex.decode(KnownAnswerVectors.privateKeyOf(c.path("signedBy").path("label").asText()), 32));
                    JsonNode over = c.path("signedOver");
                    String signedHash = over.isNull() ? c.path("digest").asText() : over.path("signedHash").asText();
                    assertThat(Hex.encode(signer.sign(Hex.decode(signedHash, 32))))
                            .isEqualTo(c.path("signature").asText());
                }));
    }

    @Test
    void refusesKeysOutsideTheCurveOrder() {
        assertThatThrownBy(() -> new DigestSigner(new byte[32])).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new DigestSigner(new byte[31])).isInstanceOf(IllegalArgumentException.class);
        byte[] n = Hex.decode("0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141");
        assertThatThrownBy(() -> new DigestSigner(n)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void neverShowsTheKey() {
        String key = KnownAnswerVectors.privateKeyOf("provider-1");
        DigestSigner signer = new DigestSigner(Hex.decode(key, 32));
        assertThat(signer.toString()).contains(signer.address()).doesNotContain(key.substring(2, 20));
    }

    @Test
    void refusesDigestsThatAreNot32Bytes() {
        DigestSigner signer = new DigestSigner(Hex.decode(KnownAnswerVectors.privateKeyOf("provider-1"), 32));
        assertThatThrownBy(() -> signer.sign(new byte[33])).isInstanceOf(IllegalArgumentException.class);
    }

    static byte[] randomKey(Random random) {
        byte[] key = new byte[32];
        random.nextBytes(key);
        key[0] &= 0x7f;
        key[31] |= 1;
        return key;
    }
}
