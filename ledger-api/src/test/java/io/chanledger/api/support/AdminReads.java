package io.chanledger.api.support;

import java.net.URI;
import java.net.http.HttpRequest;

/**
 * Reads with the admin (auditor) token of the test profile ({@code chan.admin.token} in
 * application-test.yml), for tests that check a channel's off-chain figures and are not about
 * who may see them.
 */
public final class AdminReads {

    public static final String TOKEN = "test-admin-token";

    private AdminReads() {
    }

    public static Http.Reply get(String url) {
        return Http.send(HttpRequest.newBuilder(URI.create(url)).GET().header("Authorization", "Bearer " + TOKEN));
    }
}
