package io.chanledger.api.http;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Collections;
import java.util.Enumeration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Treats a request {@code Content-Type} with a wildcard (<code>*&#47;*</code>, {@code application/*},
 * {@code application/*+json}) as absent. A wildcard is an {@code Accept} range, not the type of a
 * body, and Spring fails on it with an IllegalArgumentException (a 500) wherever it reads the
 * request's headers (spring-framework#27957: it adds the request's character encoding to the type
 * and then refuses to set a wildcard type). Without a type, each endpoint does what it does for a
 * body sent with none: the ones that take any body read it as JSON, the others answer 415
 * {@code unsupported_media_type}.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE)
class WildcardContentTypeFilter extends OncePerRequestFilter {

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        chain.doFilter(isWildcard(request.getContentType()) ? new WithoutContentType(request) : request, response);
    }

    static boolean isWildcard(String contentType) {
        if (contentType == null || contentType.indexOf('*') < 0) {
            return false;
        }
        try {
            return !MediaType.parseMediaType(contentType).isConcrete();
        } catch (InvalidMediaTypeException e) {
            // not a media type at all: Spring already answers that with 415
            return false;
        }
    }

    private static final class WithoutContentType extends HttpServletRequestWrapper {

        WithoutContentType(HttpServletRequest request) {
            super(request);
        }

        @Override
        public String getContentType() {
            return null;
        }

        @Override
        public String getHeader(String name) {
            return isContentType(name) ? null : super.getHeader(name);
        }

        @Override
        public Enumeration<String> getHeaders(String name) {
            return isContentType(name) ? Collections.emptyEnumeration() : super.getHeaders(name);
        }

        @Override
        public Enumeration<String> getHeaderNames() {
            return Collections.enumeration(Collections.list(super.getHeaderNames()).stream()
                    .filter(name -> !isContentType(name))
                    .toList());
        }

        private static boolean isContentType(String name) {
            return HttpHeaders.CONTENT_TYPE.equalsIgnoreCase(name);
        }
    }
}
