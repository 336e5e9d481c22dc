package io.chanledger.api.http;

import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import java.util.Optional;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Component;

/**
 * What a browser gets at an address that is no resource: a page ({@link NotFoundPage}) rather than
 * the API's JSON. A browser is a GET (or HEAD) whose {@code Accept} names {@code text/html} above
 * every JSON type; API clients (JSON, {@code *}{@code /*} or no {@code Accept}) keep the error body of
 * their route family. The API's own families, {@code /api/} and {@code /v1/}, answer JSON to
 * everyone: their addresses are for API clients. Both answers say {@code Vary: Accept}.
 */
@Component
public class BrowserNotFound {

    private static final List<String> API_FAMILIES = List.of("/api/", "/v1/");

    private final ObjectProvider<NotFoundPage> pages;

    BrowserNotFound(ObjectProvider<NotFoundPage> pages) {
        this.pages = pages;
    }

    /** The page for {@code request}, when it comes from a browser and this role has one. */
    Optional<ResponseEntity<byte[]>> page(HttpServletRequest request) {
        if (!negotiated(request.getRequestURI()) || !("GET".equals(request.getMethod())
                || "HEAD".equals(request.getMethod())) || !prefersHtml(request.getHeader(HttpHeaders.ACCEPT))) {
            return Optional.empty();
        }
        return pages.orderedStream().findFirst().map(page -> {
            ResponseEntity<byte[]> answer = page.notFound();
            return ResponseEntity.status(answer.getStatusCode()).headers(answer.getHeaders())
                    .header(HttpHeaders.VARY, HttpHeaders.ACCEPT).body(answer.getBody());
        });
    }

    /** {@code answer} with {@code Vary: Accept} when its path's answer depends on the Accept header. */
    <T> ResponseEntity<T> varying(HttpServletRequest request, ResponseEntity<T> answer) {
        if (!negotiated(request.getRequestURI())) {
            return answer;
        }
        return ResponseEntity.status(answer.getStatusCode()).headers(answer.getHeaders())
                .header(HttpHeaders.VARY, HttpHeaders.ACCEPT).body(answer.getBody());
    }

    private static boolean negotiated(String path) {
        return path != null && API_FAMILIES.stream().noneMatch(path::startsWith);
    }

    /** Whether {@code accept} takes text/html explicitly, at a higher quality than any JSON. */
    static boolean prefersHtml(String accept) {
        if (accept == null || accept.isBlank()) {
            return false;
        }
        List<MediaType> types;
        try {
            types = MediaType.parseMediaTypes(accept);
        } catch (IllegalArgumentException malformed) {
            // an Accept header that does not parse (InvalidMediaTypeException among others): not a browser's
            return false;
        }
        double html = 0;
        double json = 0;
        for (MediaType type : types) {
            if (type.isWildcardType() || type.isWildcardSubtype()) {
                continue;
            }
            if (MediaType.TEXT_HTML.equalsTypeAndSubtype(type)) {
                html = Math.max(html, type.getQualityValue());
            } else if ("json".equals(type.getSubtype()) || type.getSubtype().endsWith("+json")) {
                json = Math.max(json, type.getQualityValue());
            }
        }
        return html > 0 && html > json;
    }
}
