package io.chanledger.api.ledger.signing;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chanledger.api.config.ChainProperties;
import io.chanledger.domain.eip712.Hex;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.http.CacheControl;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.context.request.WebRequest;

/**
 * {@code GET /api/chan/signing}: the EIP-712 domain and types a client signs vouchers and close
 * authorizations with. A fact of the contract, not of either party, so both roles serve it: a
 * provider's 402 names its own ({@code X-Payment-Signing}) unless it is told the marketplace's.
 * Serialized once; the network's name is the marketplace's setting, which a provider reads too.
 */
@RestController
@Tag(name = "Marketplace")
class SigningInfoController {

    private static final CacheControl ONE_HOUR = CacheControl.maxAge(Duration.ofHours(1)).cachePublic();

    private final byte[] body;
    private final String etag;

    SigningInfoController(ChainProperties chain, ObjectMapper mapper,
                          @Value("${chan.marketplace.network-name:Polygon Mainnet}") String networkName)
            throws JsonProcessingException {
        String contract = Hex.toChecksumAddress(chain.channelContract());
        this.body = mapper.writeValueAsBytes(new SigningInfo(
                new SigningInfo.Domain("ChanChannel", "1", chain.chainId(), contract),
                new SigningInfo.VoucherTypes(List.of(new SigningInfo.Field("channelId", "bytes32"),
                        new SigningInfo.Field("amount", "uint256"), new SigningInfo.Field("nonce", "uint256"))),
                new SigningInfo.CloseAuthorizationTypes(List.of(new SigningInfo.Field("channelId", "bytes32"),
                        new SigningInfo.Field("finalAmount", "uint256"))),
                new SigningInfo.ProviderEndpoints("/v1/chat/completions", "X-CHAN-Voucher", "/v1/close-channel",
                        "/v1/pricing", "/v1/models"),
                new SigningInfo.Contracts(contract, Hex.toChecksumAddress(chain.usdc())),
                new SigningInfo.Network(networkName, chain.chainId())));
        this.etag = "\"" + sha256(body) + "\"";
    }

    @GetMapping(path = "/api/chan/signing", produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "EIP-712 domain and types of vouchers and close authorizations, provider endpoints, contracts")
    @ApiResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = SigningInfo.class)))
    ResponseEntity<byte[]> signing(WebRequest request) {
        if (request.checkNotModified(etag)) {
            return null;
        }
        return ResponseEntity.ok().eTag(etag).cacheControl(ONE_HOUR).contentType(MediaType.APPLICATION_JSON)
                .body(body);
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes), 0, 16);
        } catch (NoSuchAlgorithmException impossible) {
            throw new IllegalStateException(impossible);
        }
    }
}
