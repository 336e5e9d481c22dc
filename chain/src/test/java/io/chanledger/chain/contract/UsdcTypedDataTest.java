package io.chanledger.chain.contract;

import static io.chanledger.testsupport.UsdcAuthorizations.SignatureForm.BYTES;
import static io.chanledger.testsupport.UsdcAuthorizations.SignatureForm.V_R_S;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.chanledger.testsupport.Authorization;
import io.chanledger.testsupport.Devnet;
import io.chanledger.testsupport.UsdcAuthorizations;
import io.chanledger.testsupport.UsdcSignatures;
import io.chanledger.domain.eip712.Eip3009Vectors;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.web3j.crypto.Credentials;
import org.web3j.crypto.Hash;
import org.web3j.crypto.Keys;
import org.web3j.crypto.Sign;
import org.web3j.crypto.StructuredDataEncoder;
import org.web3j.utils.Numeric;

/**
 * The devnet token's EIP-712 domain and EIP-3009 digests, known answers from viem (the library
 * x402's clients sign with): web3j's typed-data encoder and the tests' hand-written digests agree
 * with them, and the token computes the same digests, since viem's signatures settle on it.
 */
class UsdcTypedDataTest extends ContractTestSupport {

    private static final UsdcAuthorizations USDC = DEVNET.usdcAuthorizations();
    private static final JsonNode VECTORS = Eip3009Vectors.root();
    private static final Map<String, String> TYPEHASH_GETTERS = Map.of(
            "TransferWithAuthorization", "TRANSFER_WITH_AUTHORIZATION_TYPEHASH",
            "ReceiveWithAuthorization", "RECEIVE_WITH_AUTHORIZATION_TYPEHASH",
            "CancelAuthorization", "CANCEL_AUTHORIZATION_TYPEHASH");

    @Test
    void theTokenDescribesItselfAsPolygonsUsdcDoes() {
        assertThat(USDC.token()).isEqualTo(Devnet.POLYGON_USDC);
        assertThat(USDC.readText("name")).isEqualTo("USD Coin").isEqualTo(VECTORS.path("domain").path("name").asText());
        assertThat(USDC.readText("version")).isEqualTo("2").isEqualTo(VECTORS.path("domain").path("version").asText());
        assertThat(USDC.readText("symbol")).isEqualTo("USDC");
        assertThat(Numeric.toBigInt(USDC.readBytes32("decimals"))).isEqualTo(6);
        assertThat(VECTORS.path("domain").path("verifyingContract").asText()).isEqualToIgnoringCase(Devnet.POLYGON_USDC);
    }

    @Test
    void theDomainSeparatorIsViemsForPolygonsUsdc() {
        byte[] viem = hex(VECTORS.path("domainSeparator").asText());

        assertThat(USDC.contractDomainSeparator()).isEqualTo(viem);
        assertThat(UsdcSignatures.domainSeparator(137, Devnet.POLYGON_USDC)).isEqualTo(viem);
        assertThat(encoder(Eip3009Vectors.authorizations().getFirst()).hashDomain()).isEqualTo(viem);
    }

    @Test
    void theTypeHashConstantsAreEip3009sTypes() {
        TYPEHASH_GETTERS.forEach((type, getter) -> {
            JsonNode vector = VECTORS.path("typeHashes").path(type);
            byte[] viem = hex(vector.path("hash").asText());
            JsonNode signedOfType = Eip3009Vectors.authorizations().stream()
                    .filter(a -> a.path("primaryType").asText().equals(type)).findFirst().orElseThrow();
            assertThat(USDC.readBytes32(getter)).as(getter).isEqualTo(viem);
            assertThat(Hash.sha3String(vector.path("type").asText())).isEqualTo(Numeric.toHexString(viem));
            assertThat(encoder(signedOfType).typeHash(type)).as(type).isEqualTo(viem);
        });
    }

    @TestFactory
    Stream<DynamicTest> web3jAndTheHandWrittenDigestsAgreeWithViem() {
        return Eip3009Vectors.authorizations().stream().map(vector -> DynamicTest.dynamicTest(vector.path("id").asText(),
                () -> {
                    byte[] digest = hex(vector.path("digest").asText());
                    StructuredDataEncoder encoder = encoder(vector);
                    String primaryType = vector.path("primaryType").asText();
                    assertThat(encoder.hashStructuredData()).isEqualTo(digest);
                    assertThat(encoder.hashMessage(primaryType, message(vector))).isEqualTo(
                            hex(vector.path("structHash").asText()));
                    assertThat(handWrittenDigest(vector)).isEqualTo(digest);
                    byte[] signature = hex(vector.path("signature").asText());
                    BigInteger key = Sign.signedMessageHashToKey(digest, new Sign.SignatureData(signature[64],
                            Arrays.copyOfRange(signature, 0, 32), Arrays.copyOfRange(signature, 32, 64)));
                    assertThat("0x" + Keys.getAddress(key)).isEqualTo(signer(vector).getAddress());
                }));
    }

    @Test
    void viemsTransferSignaturesSettleOnTheToken() {
        JsonNode x402 = Eip3009Vectors.authorization("transfer-as-x402-v2-signs");
        JsonNode window = Eip3009Vectors.authorization("transfer-with-a-window");
        String payee = x402.path("message").path("to").asText();
        BigInteger before = balance(payee);

        USDC.transferWithAuthorization(STRANGER, authorization(x402), hex(x402.path("signature").asText()), BYTES);
        USDC.transferWithAuthorization(STRANGER, authorization(window), hex(window.path("signature").asText()), V_R_S);

        assertThat(balance(payee)).isEqualTo(before.add(authorization(x402).value()).add(authorization(window).value()));
    }

    @Test
    void viemsReceiveAndCancelSignaturesSettleOnTheToken() {
        JsonNode receive = Eip3009Vectors.authorization("receive");
        JsonNode cancel = Eip3009Vectors.authorization("cancel");
        Credentials payee = Credentials.create(Eip3009Vectors.privateKeyOf("provider-1"));
        String payer = signer(cancel).getAddress();
        String canceledNonce = cancel.path("message").path("nonce").asText();

        USDC.receiveWithAuthorization(payee, authorization(receive), hex(receive.path("signature").asText()), BYTES);
        USDC.cancelAuthorization(STRANGER, payer, canceledNonce, hex(cancel.path("signature").asText()), V_R_S);

        assertThat(USDC.authorizationState(payer, authorization(receive).nonce())).isTrue();
        assertThat(USDC.authorizationState(payer, canceledNonce)).isTrue();
    }

    @Test
    void viemsSignatureForAnotherChainIsRefusedHere() {
        JsonNode amoy = Eip3009Vectors.authorization("transfer-for-another-chain");
        assertThat(amoy.path("domain").path("chainId").asLong()).isNotEqualTo(DEVNET.chainId());

        assertReverts(() -> USDC.transferWithAuthorization(STRANGER, authorization(amoy),
                hex(amoy.path("signature").asText()), BYTES), "Error: FiatTokenV2: invalid signature");
    }

    private static byte[] handWrittenDigest(JsonNode vector) {
        JsonNode domain = Eip3009Vectors.domainOf(vector);
        byte[] separator = UsdcSignatures.domainSeparator(domain.path("chainId").asLong(),
                domain.path("verifyingContract").asText());
        return switch (vector.path("primaryType").asText()) {
            case "TransferWithAuthorization" -> UsdcSignatures.transferDigest(separator, authorization(vector));
            case "ReceiveWithAuthorization" -> UsdcSignatures.receiveDigest(separator, authorization(vector));
            case "CancelAuthorization" -> UsdcSignatures.cancelDigest(separator,
                    vector.path("message").path("authorizer").asText(), vector.path("message").path("nonce").asText());
            default -> throw new AssertionError("unknown primary type in " + vector);
        };
    }

    private static Authorization authorization(JsonNode vector) {
        JsonNode m = vector.path("message");
        return new Authorization(m.path("from").asText().toLowerCase(), m.path("to").asText().toLowerCase(),
                new BigInteger(m.path("value").asText()), new BigInteger(m.path("validAfter").asText()),
                new BigInteger(m.path("validBefore").asText()), m.path("nonce").asText());
    }

    private static Credentials signer(JsonNode vector) {
        return Credentials.create(Eip3009Vectors.privateKeyOf(vector.path("signer").asText()));
    }

    /** web3j's typed-data encoder fed the vector as eth_signTypedData_v4's JSON. */
    private static StructuredDataEncoder encoder(JsonNode vector) {
        ObjectMapper json = new ObjectMapper();
        ObjectNode typedData = json.createObjectNode();
        ObjectNode types = typedData.putObject("types");
        fields(types.putArray("EIP712Domain"), "name:string", "version:string", "chainId:uint256",
                "verifyingContract:address");
        String primaryType = vector.path("primaryType").asText();
        if (primaryType.equals("CancelAuthorization")) {
            fields(types.putArray(primaryType), "authorizer:address", "nonce:bytes32");
        } else {
            fields(types.putArray(primaryType), "from:address", "to:address", "value:uint256", "validAfter:uint256",
                    "validBefore:uint256", "nonce:bytes32");
        }
        typedData.put("primaryType", primaryType);
        typedData.set("domain", Eip3009Vectors.domainOf(vector));
        typedData.set("message", vector.path("message"));
        try {
            return new StructuredDataEncoder(json.writeValueAsString(typedData));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void fields(ArrayNode array, String... nameColonTypes) {
        for (String field : nameColonTypes) {
            String[] parts = field.split(":");
            array.addObject().put("name", parts[0]).put("type", parts[1]);
        }
    }

    @SuppressWarnings("unchecked")
    private static HashMap<String, Object> message(JsonNode vector) {
        return new ObjectMapper().convertValue(vector.path("message"), HashMap.class);
    }

    private static byte[] hex(String text) {
        return Numeric.hexStringToByteArray(text);
    }
}
