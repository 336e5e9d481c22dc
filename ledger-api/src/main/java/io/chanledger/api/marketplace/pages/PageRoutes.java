package io.chanledger.api.marketplace.pages;

import io.chanledger.api.http.BuiltPage;
import io.chanledger.api.http.NotFoundPage;
import io.swagger.v3.oas.annotations.Hidden;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.GetMapping;

/**
 * The single-page application's fallback: every address the pages' router knows answers the
 * built {@code index.html}, so deep links and reloads work. Only these routes are mapped, never a
 * catch-all, so {@code /api}, {@code /v1}, {@code /actuator}, {@code /v3/api-docs}, {@code /echo}
 * and any address added later keep their own answers (an unknown one stays a JSON 404 for API
 * clients). A browser at an unknown address gets the application with 404, which shows it a page
 * saying so (at {@code /dashboard}, where a provider's server shows its dashboard, one saying where
 * to find it); in a process of both roles this page comes before the provider's.
 */
@Hidden
@Controller
@Order(Ordered.HIGHEST_PRECEDENCE)
class PageRoutes implements NotFoundPage {

    static final String INDEX = "static/index.html";

    /**
     * Scripts and styles from this service only (the pages ship everything in the jar); requests
     * anywhere over http(s), since a provider's page reads that provider's own {@code /v1/docs};
     * images too, since providers' logos are on their own servers (loaded without a referrer);
     * never framed, so a wallet prompt cannot be clickjacked.
     */
    static final String CONTENT_SECURITY_POLICY = "default-src 'self'; script-src 'self'; "
            + "style-src 'self' 'unsafe-inline'; img-src 'self' data: http: https:; connect-src 'self' http: https:; "
            + "frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'";

    private final BuiltPage index = BuiltPage.load(INDEX, CONTENT_SECURITY_POLICY, "The web pages are");

    @GetMapping({"/", "/providers/{providerId}", "/skills", "/skills/{slug}", "/become-a-provider", "/console",
            "/channels", "/channels/{channelId}", "/my-channels"})
    ResponseEntity<byte[]> page() {
        return index.response();
    }

    @Override
    public ResponseEntity<byte[]> notFound() {
        return index.response(HttpStatus.NOT_FOUND);
    }
}
