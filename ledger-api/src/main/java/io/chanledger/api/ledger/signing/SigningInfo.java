package io.chanledger.api.ledger.signing;

import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;

/** Body of {@code GET /api/chan/signing} (docs/protocol.md §4.3): what a client needs to sign vouchers and close authorizations. */
@Schema(name = "SigningInfo")
record SigningInfo(
        Domain eip712Domain,
        VoucherTypes voucherTypes,
        CloseAuthorizationTypes closeAuthorizationTypes,
        ProviderEndpoints providerEndpoints,
        Contracts contracts,
        Network network) {

    @Schema(name = "Eip712Domain")
    record Domain(@Schema(example = "ChanChannel") String name, @Schema(example = "1") String version,
                  @Schema(example = "137") long chainId, String verifyingContract) {
    }

    @Schema(name = "TypedField")
    record Field(String name, String type) {
    }

    record VoucherTypes(@Schema(name = "Voucher") List<Field> Voucher) {
    }

    record CloseAuthorizationTypes(@Schema(name = "CloseAuthorization") List<Field> CloseAuthorization) {
    }

    @Schema(name = "ProviderEndpoints")
    record ProviderEndpoints(
            @Schema(example = "/v1/chat/completions") String chat,
            @Schema(example = "X-CHAN-Voucher") String chatVoucherHeader,
            @Schema(example = "/v1/close-channel") String cooperativeClose,
            @Schema(example = "/v1/pricing") String pricing,
            @Schema(example = "/v1/models") String models) {
    }

    @Schema(name = "Contracts")
    record Contracts(String channel, String usdc) {
    }

    @Schema(name = "Network")
    record Network(@Schema(example = "Polygon Mainnet") String name, @Schema(example = "137") long chainId) {
    }
}
