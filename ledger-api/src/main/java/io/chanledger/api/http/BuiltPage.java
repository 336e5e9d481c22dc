package io.chanledger.api.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.Resource;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;

/**
 * An HTML page of the built front end, read once from the jar, and how it is answered: revalidated
 * on every load (it names the hashed assets of the current build), under its own
 * Content-Security-Policy, never sniffed, with no referrer sent elsewhere. A jar built without the
 * front end ({@code ./mvnw} without {@code deploy/run.sh} or {@code deploy/test.sh} first) answers
 * a plain 404 that says so.
 */
public final class BuiltPage {

    private final byte[] html;
    private final String contentSecurityPolicy;
    private final String missing;

    private BuiltPage(byte[] html, String contentSecurityPolicy, String missing) {
        this.html = html;
        this.contentSecurityPolicy = contentSecurityPolicy;
        this.missing = missing;
    }

    /** The page at classpath {@code resource}; {@code what} names it in the answer of a build without it. */
    public static BuiltPage load(String resource, String contentSecurityPolicy, String what) {
        Resource page = new ClassPathResource(resource);
        String missing = what + " not in this build: build web/ first (deploy/run.sh does).\n";
        if (!page.exists()) {
            return new BuiltPage(null, contentSecurityPolicy, missing);
        }
        try (InputStream in = page.getInputStream()) {
            return new BuiltPage(in.readAllBytes(), contentSecurityPolicy, missing);
        } catch (IOException e) {
            throw new UncheckedIOException("the built page " + resource + " could not be read", e);
        }
    }

    public ResponseEntity<byte[]> response() {
        return response(HttpStatus.OK);
    }

    /** The page with {@code status}: a 404 page for an address that is no resource. */
    public ResponseEntity<byte[]> response(HttpStatus status) {
        if (html == null) {
            return ResponseEntity.status(HttpStatus.NOT_FOUND).contentType(MediaType.TEXT_PLAIN)
                    .body(missing.getBytes(StandardCharsets.UTF_8));
        }
        return ResponseEntity.status(status).contentType(MediaType.TEXT_HTML).cacheControl(CacheControl.noCache())
                .header("Content-Security-Policy", contentSecurityPolicy)
                .header("X-Content-Type-Options", "nosniff")
                .header("Referrer-Policy", "same-origin")
                .body(html);
    }
}
