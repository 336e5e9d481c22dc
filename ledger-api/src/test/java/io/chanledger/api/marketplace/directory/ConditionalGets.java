package io.chanledger.api.marketplace.directory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.chanledger.api.support.Http;
import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;

/** The ETag round trip every read endpoint supports. */
final class ConditionalGets {

    private ConditionalGets() {
    }

    static Http.Reply get(String url, String ifNoneMatch) {
        return Http.send(HttpRequest.newBuilder(URI.create(url)).header("If-None-Match", ifNoneMatch));
    }

    /**
     * A 200 carries an ETag; asking again with it gives 304 without a body (a weak or listed tag
     * too), and a stale tag gives the body. Lists that move with every health check may change
     * between two requests, so the pair is retried until both fall between two changes.
     */
    static void assertRoundTrip(String url, String cacheControl) {
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20)).untilAsserted(() -> {
            Http.Reply first = Http.get(url);
            assertThat(first.status()).isEqualTo(200);
            String etag = first.raw().headers().firstValue("ETag").orElseThrow();
            assertThat(etag).matches("\"[A-Za-z0-9_-]+\"");
            if (cacheControl != null) {
                assertThat(first.raw().headers().firstValue("Cache-Control")).hasValue(cacheControl);
            }
            Http.Reply again = get(url, etag);
            Http.Reply weakInList = get(url, "\"other\", W/" + etag);
            assertThat(again.status()).isEqualTo(304);
            assertThat(again.body()).isEmpty();
            assertThat(again.raw().headers().firstValue("ETag")).hasValue(etag);
            assertThat(weakInList.status()).isEqualTo(304);
        });
        Http.Reply stale = get(url, "\"stale\"");
        assertThat(stale.status()).isEqualTo(200);
        assertThat(stale.body()).isNotEmpty();
    }
}
