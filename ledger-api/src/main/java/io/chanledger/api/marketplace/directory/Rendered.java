package io.chanledger.api.marketplace.directory;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.List;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;

/**
 * A body (JSON, or text for agents) serialized once, with its strong entity tag (a hash of the
 * bytes), answered as is to every request until it is replaced. Requests whose
 * {@code If-None-Match} names the tag get 304.
 */
public record Rendered(byte[] body, String etag) {

    public static Rendered of(ObjectMapper mapper, Object value) {
        try {
            byte[] bytes = mapper.writeValueAsBytes(value);
            return new Rendered(bytes, tag(bytes));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("response could not be serialized", e);
        }
    }

    /** A text body (UTF-8), such as the guides for agents. */
    public static Rendered text(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        return new Rendered(bytes, tag(bytes));
    }

    static String tag(byte[] bytes) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(bytes);
            return "\"" + Base64.getUrlEncoder().withoutPadding().encodeToString(hash).substring(0, 27) + "\"";
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    public ResponseEntity<byte[]> respond(String ifNoneMatch, CacheControl cacheControl) {
        return respond(ifNoneMatch, cacheControl, MediaType.APPLICATION_JSON);
    }

    public ResponseEntity<byte[]> respond(String ifNoneMatch, CacheControl cacheControl, MediaType contentType) {
        if (matches(ifNoneMatch)) {
            return ResponseEntity.status(HttpStatus.NOT_MODIFIED).eTag(etag).cacheControl(cacheControl).build();
        }
        return ResponseEntity.ok()
                .eTag(etag)
                .cacheControl(cacheControl)
                .contentType(contentType)
                .header(HttpHeaders.CONTENT_LENGTH, Integer.toString(body.length))
                .body(body);
    }

    /** RFC 9110 weak comparison, as If-None-Match requires: W/ prefixes are ignored; "*" matches. */
    boolean matches(String ifNoneMatch) {
        if (ifNoneMatch == null || ifNoneMatch.isBlank()) {
            return false;
        }
        for (String candidate : List.of(ifNoneMatch.split(","))) {
            String tag = candidate.strip();
            if (tag.equals("*")) {
                return true;
            }
            if (tag.startsWith("W/")) {
                tag = tag.substring(2);
            }
            if (tag.equals(etag)) {
                return true;
            }
        }
        return false;
    }
}
