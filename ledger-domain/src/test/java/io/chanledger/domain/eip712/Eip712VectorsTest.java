package io.chanledger.domain.eip712;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/** Known answers from the shared vectors: every digest, recovery and accept/reason. */
class Eip712VectorsTest {

    private static final JsonNode ROOT = KnownAnswerVectors.root();
    private static final ChanTypedData TYPED = new ChanTypedData(KnownAnswerVectors.domainOf(ROOT.path("domain")));

    @Test
    void domainTypeHashMatchesTheVectors() {
        assertThat(ChanTypedData.DOMAIN_TYPE).isEqualTo(ROOT.path("domainTypeString").asText());
        assertThat(Hex.encode(ChanTypedData.domainTypeHash())).isEqualTo(ROOT.path("domainTypeHash").asText());
    }

    @Test
    void domainSeparatorMatchesTheVectors() {
        assertThat(Hex.encode(TYPED.domainSeparator())).isEqualTo(ROOT.path("domainSeparator").asText());
    }

    @Test
    void chanDomainIsNamedChanChannelVersionOne() {
        JsonNode domain = ROOT.path("domain");
        Eip712Domain chan = Eip712Domain.chan(domain.path("chainId").asLong(), domain.path("verifyingContract").asText());
        assertThat(chan).isEqualTo(KnownAnswerVectors.domainOf(domain));
        assertThat(chan.verifyingContract()).isEqualTo(domain.path("verifyingContract").asText().toLowerCase(Locale.ROOT));
    }

    @Test
    void typeStringsAndHashesMatchTheVectors() {
        assertThat(ChanTypedData.VOUCHER_TYPE).isEqualTo(ROOT.path("typeStrings").path("Voucher").asText());
        assertThat(ChanTypedData.CLOSE_AUTHORIZATION_TYPE)
                .isEqualTo(ROOT.path("typeStrings").path("CloseAuthorization").asText());
        assertThat(Hex.encode(ChanTypedData.voucherTypeHash()))
                .isEqualTo(ROOT.path("typeHashes").path("Voucher").asText());
        assertThat(Hex.encode(ChanTypedData.closeAuthorizationTypeHash()))
                .isEqualTo(ROOT.path("typeHashes").path("CloseAuthorization").asText());
    }

    @TestFactory
    Stream<DynamicTest> vouchers() {
        String consumer = ROOT.path("channel").path("consumer").asText();
        return KnownAnswerVectors.list("vouchers").stream().map(c -> KnownAnswerVectors.caseTest("voucher " + c.path("id").asText(), c.path("id").asText(), () -> {
            byte[] digest = TYPED.voucherDigest(Hex.decode(c.path("channelId").asText(), 32),
                    uint(c, "amount"), uint(c, "nonce"));
            assertThat(Hex.encode(digest)).isEqualTo(c.path("digest").asText());
            checkSignedOver(c);
            checkVerdict(c, digest, consumer);
        }));
    }

    @TestFactory
    Stream<DynamicTest> closeAuthorizations() {
        String provider = ROOT.path("channel").path("provider").asText();
        return KnownAnswerVectors.list("closeAuthorizations").stream().map(c -> KnownAnswerVectors.caseTest(
                "close authorization " + c.path("id").asText(), c.path("id").asText(), () -> {
                    byte[] digest = TYPED.closeAuthorizationDigest(Hex.decode(c.path("channelId").asText(), 32),
                            uint(c, "finalAmount"));
                    assertThat(Hex.encode(digest)).isEqualTo(c.path("digest").asText());
                    checkSignedOver(c);
                    checkVerdict(c, digest, provider);
                }));
    }

    @TestFactory
    Stream<DynamicTest> channelIds() {
        return KnownAnswerVectors.list("channelIds").stream().map(c -> KnownAnswerVectors.caseTest("channel id " + c.path("id").asText(), c.path("id").asText(),
                () -> assertThat(ChannelIds.compute(c.path("consumer").asText(), c.path("provider").asText(),
                        uint(c, "timestamp"), uint(c, "nonce"))).isEqualTo(c.path("channelId").asText())));
    }

    @Test
    void channelIdFromLongsMatchesTheFirstChannel() {
        JsonNode channel = ROOT.path("channel");
        JsonNode first = KnownAnswerVectors.list("channelIds").get(0);
        assertThat(ChannelIds.compute(channel.path("consumer").asText(), channel.path("provider").asText(),
                first.path("timestamp").asLong(), first.path("nonce").asLong()))
                .isEqualTo(channel.path("channelId").asText());
    }

    @TestFactory
    Stream<DynamicTest> keys() {
        return KnownAnswerVectors.list("keys").stream().map(k -> KnownAnswerVectors.caseTest("key " + k.path("label").asText(), k.path("label").asText(), () -> {
            String privateKey = k.path("privateKey").asText();
            String address = k.path("address").asText();
            assertThat(Hex.encode(Keccak.keccak256(k.path("label").asText().getBytes(StandardCharsets.UTF_8))))
                    .as("keyDerivation").isEqualTo(privateKey);
            assertThat(new DigestSigner(Hex.decode(privateKey, 32)).address())
                    .isEqualTo(address.toLowerCase(Locale.ROOT));
            assertThat(Hex.toChecksumAddress(address.toLowerCase(Locale.ROOT))).isEqualTo(address);
            assertThat(Hex.isValidChecksum(address)).isTrue();
        }));
    }

    /** The hash the signer actually signed, when that was another domain or message. */
    private static void checkSignedOver(JsonNode c) {
        JsonNode over = c.path("signedOver");
        if (over.isNull() || over.isMissingNode()) {
            return;
        }
        ChanTypedData typed = new ChanTypedData(KnownAnswerVectors.domainOf(over.path("domain")));
        JsonNode message = over.path("message");
        byte[] channelId = Hex.decode(message.path("channelId").asText(), 32);
        byte[] signed = switch (over.path("primaryType").asText()) {
            case "Voucher" -> {
                assertThat(over.path("typeString").asText()).isEqualTo(ChanTypedData.VOUCHER_TYPE);
                yield typed.voucherDigest(channelId, uint(message, "amount"), uint(message, "nonce"));
            }
            case "CloseAuthorization" -> {
                assertThat(over.path("typeString").asText()).isEqualTo(ChanTypedData.CLOSE_AUTHORIZATION_TYPE);
                yield typed.closeAuthorizationDigest(channelId, uint(message, "finalAmount"));
            }
            default -> throw new AssertionError("unknown primaryType " + over.path("primaryType"));
        };
        assertThat(Hex.encode(signed)).as("signedOver.signedHash").isEqualTo(over.path("signedHash").asText());
        SignatureVerdict overVerdict = ContractSignatureRule.recover(signed, Hex.decode(c.path("signature").asText()));
        assertThat(overVerdict).as("the signer recovers from the hash it signed")
                .isEqualTo(new SignatureVerdict.Recovered(lower(c.path("signedBy").path("address").asText())));
    }

    private static void checkVerdict(JsonNode c, byte[] digest, String expectedParty) {
        byte[] signature = Hex.decode(c.path("signature").asText());
        assertThat(signature).hasSize(c.path("signatureLength").asInt());
        SignatureVerdict verdict = ContractSignatureRule.recover(digest, signature);
        JsonNode recovered = c.path("recoveredSigner");
        if (!recovered.isNull()) {
            assertThat(verdict).isEqualTo(new SignatureVerdict.Recovered(lower(recovered.asText())));
        }
        String reason = switch (verdict) {
            case SignatureVerdict.Rejected rejected -> rejected.reason().code();
            case SignatureVerdict.Recovered ok -> ok.isSigner(expectedParty) ? "ok" : "wrong-signer";
        };
        assertThat(reason).isEqualTo(c.path("reason").asText());
        assertThat(reason.equals("ok")).isEqualTo(c.path("accept").asBoolean());
        assertThat(lower(c.path("expectedSigner").asText())).isEqualTo(lower(expectedParty));
    }

    static BigInteger uint(JsonNode node, String field) {
        return new BigInteger(node.path(field).asText());
    }

    private static String lower(String address) {
        return address.toLowerCase(Locale.ROOT);
    }

    static List<JsonNode> signatureCases() {
        List<JsonNode> cases = new ArrayList<>(KnownAnswerVectors.list("vouchers"));
        cases.addAll(KnownAnswerVectors.list("closeAuthorizations"));
        return cases;
    }
}
