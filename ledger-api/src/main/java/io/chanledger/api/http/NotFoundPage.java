package io.chanledger.api.http;

import org.springframework.http.ResponseEntity;

/**
 * The HTML page a role shows a browser at an address that is no resource, in place of the API's
 * 404 body ({@link BrowserNotFound}): the marketplace's pages (which say so and link to the
 * marketplace), a provider's page pointing to its dashboard. A process of both roles shows the
 * marketplace's, ordered first.
 */
public interface NotFoundPage {

    /** The page, answered with 404. */
    ResponseEntity<byte[]> notFound();
}
