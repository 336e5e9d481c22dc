package io.chanledger.api.ledger.channels.command;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.chanledger.api.config.ConditionalOnRole;
import io.chanledger.api.config.Role;
import io.chanledger.api.http.HotPathJson;
import io.chanledger.api.http.HotPathMapping;
import io.chanledger.domain.channel.VoucherReceipt;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Voucher admission outside a paid request: a provider's ledger of its own channels. A marketplace
 * follows channels on the chain only and takes no vouchers (docs/operations.md, "Roles").
 */
@RestController
@RequestMapping(path = "/api/channels/{channelId}", produces = MediaType.APPLICATION_JSON_VALUE)
@ConditionalOnRole(Role.PROVIDER)
class VoucherController {

    private final VoucherAdmission admission;
    private final HotPathJson<VoucherReceiptResponse> voucherJson;

    VoucherController(VoucherAdmission admission, ObjectMapper json) {
        this.admission = admission;
        this.voucherJson = HotPathJson.of(json, VoucherReceiptResponse.class);
    }

    /**
     * Body: the {@code X-CHAN-Voucher} JSON. Amount and nonce are decimal strings (integers are taken
     * too). Read and answered without the message converters ({@link HotPathJson}); the annotations
     * describe the exchange to OpenAPI as the converters' signature did. Looked up before the other
     * mappings ({@link HotPathMapping}): a provider takes vouchers at the rate agents pay.
     */
    @HotPathMapping
    @PostMapping(path = "/vouchers", consumes = MediaType.APPLICATION_JSON_VALUE)
    @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true, content = @Content(
            mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(type = "object")))
    @ApiResponse(responseCode = "200", content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE,
            schema = @Schema(implementation = VoucherReceiptResponse.class)))
    void acceptVoucher(@PathVariable String channelId, @Parameter(hidden = true) HttpServletRequest request,
                       @Parameter(hidden = true) HttpServletResponse response) throws IOException {
        VoucherReceipt receipt = admission.admit(VoucherJson.parse(voucherJson.read(request), channelId), null);
        voucherJson.write(VoucherReceiptResponse.of(receipt), response);
    }
}
