package io.chanledger.api.marketplace.pages;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.time.Duration;
import org.springframework.http.CacheControl;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** What the web pages need from the deployment's settings and the API does not say elsewhere. */
@RestController
@Tag(name = "Web pages")
class WebSettingsController {

    private final WebProperties properties;

    WebSettingsController(WebProperties properties) {
        this.properties = properties;
    }

    @Schema(name = "WebSettings")
    record WebSettings(@Schema(description = "block explorer address of a transaction, {txHash} standing for "
            + "its hash", example = "https://polygonscan.com/tx/{txHash}") String explorerTxUrl) {
    }

    @GetMapping(path = "/api/web/settings", produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Settings of the web pages")
    ResponseEntity<WebSettings> settings() {
        return ResponseEntity.ok().cacheControl(CacheControl.maxAge(Duration.ofMinutes(5)))
                .body(new WebSettings(properties.explorerTxUrl()));
    }
}
