package io.chanledger.api.ledger.wallet;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /api/chan/audience}: the {@code audience} this server expects in the wallet-signed
 * requests it receives. For the web pages, which are served by the same server and so trust it as
 * much as their own code; a client of another origin knows whom it is talking to from elsewhere (a
 * provider's wallet from the listing and the channel on-chain, the marketplace's URL from its own
 * configuration) and must not take this answer instead.
 */
@RestController
@Tag(name = "Marketplace")
class WalletAudienceController {

    record AudienceResponse(String audience) {
    }

    private final AudienceResponse body;

    WalletAudienceController(WalletAudience audience) {
        this.body = new AudienceResponse(audience.name());
    }

    @GetMapping(path = "/api/chan/audience", produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "The audience this server expects in the text of a wallet-signed request")
    AudienceResponse audience() {
        return body;
    }
}
