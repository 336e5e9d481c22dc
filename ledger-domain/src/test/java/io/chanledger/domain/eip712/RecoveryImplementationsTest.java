package io.chanledger.domain.eip712;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/** libsecp256k1 and the pure-Java fallback must give the same verdict on every input. */
class RecoveryImplementationsTest {

    private static NativeRecovery nativeRecovery;
    private static final Web3jRecovery FALLBACK = Web3jRecovery.INSTANCE;

    @BeforeAll
    static void loadNative() {
        nativeRecovery = NativeRecovery.load();
    }

    @Test
    void fallsBackToPureJavaWhenTheNativeLibraryCannotLoad() {
        Secp256k1Recovery chosen = ContractSignatureRule.Preferred.choose(() -> {
            throw new UnsatisfiedLinkError("no secp256k1-jni for this platform");
        });
        assertThat(chosen).isSameAs(FALLBACK);
        assertThat(ContractSignatureRule.Preferred.choose(() -> {
            throw new IllegalStateException("wrong key on the known answer");
        })).isSameAs(FALLBACK);
        assertThat(ContractSignatureRule.Preferred.choose(NativeRecovery::load)).isInstanceOf(NativeRecovery.class);
    }

    @Test
    void agreeOnSignaturesFromRandomKeys() {
        Random random = new Random(137);
        for (int i = 0; i < 200; i++) {
            DigestSigner signer = new DigestSigner(DigestSignerTest.randomKey(random));
            byte[] digest = new byte[32];
            random.nextBytes(digest);
            byte[] signature = signer.sign(digest);
            SignatureVerdict expected = new SignatureVerdict.Recovered(signer.address());

            assertThat(ContractSignatureRule.recover(digest, signature, nativeRecovery)).isEqualTo(expected);
            assertThat(ContractSignatureRule.recover(digest, signature, FALLBACK)).isEqualTo(expected);
        }
    }

    /** Random r and s: about half of all r are not x-coordinates, so both paths get exercised on failures too. */
    @Test
    void agreeOnRandomBytes() {
        Random random = new Random(80002);
        int recovered = 0;
        int invalid = 0;
        for (int i = 0; i < 400; i++) {
            byte[] digest = new byte[32];
            random.nextBytes(digest);
            byte[] signature = new byte[65];
            random.nextBytes(signature);
            signature[32] &= 0x7f;
            signature[64] = (byte) (27 + random.nextInt(2));

            SignatureVerdict fromNative = ContractSignatureRule.recover(digest, signature, nativeRecovery);
            assertThat(ContractSignatureRule.recover(digest, signature, FALLBACK)).isEqualTo(fromNative);
            if (fromNative instanceof SignatureVerdict.Recovered) {
                recovered++;
            } else {
                invalid++;
            }
        }
        assertThat(recovered).isPositive();
        assertThat(invalid).isPositive();
    }

    @Test
    void bothRefuseAnRThatIsNotAnXCoordinate() {
        byte[] rs = new byte[64];
        Words.putUint256(rs, 0, ContractSignatureRuleTest.notAnXCoordinate(), "r");
        Words.putUint256(rs, 32, BigInteger.TWO, "s");
        for (int recoveryId = 0; recoveryId < 2; recoveryId++) {
            assertThat(nativeRecovery.recoverPublicKey(KnownAnswer.DIGEST, rs, recoveryId)).isNull();
            assertThat(FALLBACK.recoverPublicKey(KnownAnswer.DIGEST, rs, recoveryId)).isNull();
        }
    }

    @TestFactory
    Stream<DynamicTest> agreeOnEveryVectorSignature() {
        return Eip712VectorsTest.signatureCases().stream().map(c -> KnownAnswerVectors.caseTest(c.path("id").asText(), c.path("id").asText(), () -> {
            byte[] digest = Hex.decode(c.path("digest").asText(), 32);
            byte[] signature = Hex.decode(c.path("signature").asText());
            assertThat(ContractSignatureRule.recover(digest, signature, FALLBACK))
                    .isEqualTo(ContractSignatureRule.recover(digest, signature, nativeRecovery));
        }));
    }
}
