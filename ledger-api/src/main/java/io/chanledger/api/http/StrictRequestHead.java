package io.chanledger.api.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ValveBase;
import org.apache.tomcat.util.buf.ByteChunk;
import org.apache.tomcat.util.buf.MessageBytes;
import org.apache.tomcat.util.http.MimeHeaders;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.web.embedded.tomcat.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;

/**
 * Holds each request's head to the letter of HTTP/1.1 where Tomcat is lenient and has no setting
 * to be strict, before any application code runs (a valve of the engine):
 *
 * <ul>
 *   <li>A line of the head that ends in a bare LF, or a bare CR: 400 {@code malformed_request},
 *       and the connection is closed. Tomcat takes a bare LF for a line's end (RFC 9112 §2.2
 *       allows, not requires, it); a proxy in front that does not would see other headers than
 *       this service does.</li>
 *   <li>A credential header ({@code Authorization}, {@code X-CHAN-Auth-*}) or the payment
 *       header {@code X-CHAN-Voucher} sent twice: 400 {@code malformed_request} naming it.
 *       Otherwise the first would count, whichever a proxy in front judged.</li>
 *   <li>{@code TRACE}: Tomcat refuses it (the connector's {@code allowTrace} is off) with 405 and
 *       {@code Allow} but no body; the body is written here, in the route family's error shape.</li>
 *   <li>A credential header with white space after its value: Tomcat drops it (RFC 9110 §5.5), so
 *       {@code Bearer <token> } would read as the token. Such headers are named in a request
 *       attribute ({@link #hasTrailingWhitespace}), and their readers refuse them as invalid:
 *       credentials are compared exactly as sent.</li>
 * </ul>
 *
 * <p>The lines are read from the buffer Tomcat parsed the head in, which its request target and
 * header values still point into. Tomcat shifts each value left in place over the white space
 * before it, never past its own line: a line's CR and LF stay where they were, and the last byte
 * before a line's end is white space exactly when the value had white space after it. (A header
 * folded over lines, obs-fold, is joined with a space over the fold's line end, as RFC 9112 §5.2
 * allows; that line end is not read.) Where the head cannot be read so (not HTTP/1.x, or the
 * target not in Tomcat's buffer), those checks are skipped, not guessed. A refusal logs one debug
 * line: it is the client's mistake.
 */
@Component
public class StrictRequestHead implements WebServerFactoryCustomizer<TomcatServletWebServerFactory> {

    private static final Logger log = LoggerFactory.getLogger(StrictRequestHead.class);
    private static final String PADDED_CREDENTIALS = StrictRequestHead.class.getName() + ".paddedCredentials";
    private static final byte CR = '\r';
    private static final byte LF = '\n';
    private static final String WALLET_HEADER_PREFIX = "x-chan-auth-";
    private static final String VOUCHER_HEADER = "x-chan-voucher";

    private final ObjectMapper mapper;

    StrictRequestHead(ObjectMapper mapper) {
        this.mapper = mapper;
    }

    @Override
    public void customize(TomcatServletWebServerFactory factory) {
        factory.addEngineValves(new StrictHeadValve(mapper));
    }

    /** Whether the request's {@code header}, a credential header, had white space after its value. */
    public static boolean hasTrailingWhitespace(HttpServletRequest request, String header) {
        return request.getAttribute(PADDED_CREDENTIALS) instanceof Set<?> padded
                && padded.contains(header.toLowerCase(Locale.ROOT));
    }

    static boolean isCredentialHeader(String lowercaseName) {
        return lowercaseName.equals("authorization") || lowercaseName.startsWith(WALLET_HEADER_PREFIX);
    }

    /** What the head's lines say: a fault (null when none) and the credential headers with white space after them. */
    record HeadLines(String fault, Set<String> paddedCredentials) {
    }

    /**
     * Reads the lines of a request head from {@code buffer}, starting anywhere inside its request
     * line (before its end) and ending at the empty line. Header names are compared in lower case.
     */
    static HeadLines readLines(byte[] buffer, int from) {
        Set<String> padded = null; // made only when needed: almost no request has one
        int lineStart = -1; // the request line's start is not needed: none of its tests look at it
        for (int at = from; at < buffer.length; at++) {
            byte b = buffer[at];
            if (b == LF) {
                return new HeadLines("a line of the head ends in LF without CR", Set.of());
            }
            if (b != CR) {
                continue;
            }
            if (at + 1 >= buffer.length) {
                break;
            }
            if (buffer[at + 1] != LF) {
                return new HeadLines("the head has a CR that does not end a line", Set.of());
            }
            if (lineStart == at) {
                return new HeadLines(null, padded == null ? Set.of() : padded); // the empty line: the head ends
            }
            if (lineStart >= 0) {
                if (isWhitespace(buffer[at - 1])) {
                    String name = headerName(buffer, lineStart, at);
                    if (name != null && isCredentialHeader(name)) {
                        padded = padded == null ? new HashSet<>() : padded;
                        padded.add(name);
                    }
                }
            }
            at++;
            lineStart = at + 1;
        }
        return new HeadLines(null, Set.of()); // no end found in this buffer: nothing can be said
    }

    private static String headerName(byte[] buffer, int lineStart, int lineEnd) {
        for (int at = lineStart; at < lineEnd; at++) {
            if (buffer[at] == ':') {
                return new String(buffer, lineStart, at - lineStart, StandardCharsets.ISO_8859_1).toLowerCase(Locale.ROOT);
            }
        }
        return null;
    }

    private static boolean isWhitespace(byte b) {
        return b == ' ' || b == '\t';
    }

    static final class StrictHeadValve extends ValveBase {

        private final ObjectMapper mapper;

        StrictHeadValve(ObjectMapper mapper) {
            super(true);
            this.mapper = mapper;
        }

        @Override
        public void invoke(Request request, Response response) throws IOException, ServletException {
            if ("TRACE".equals(request.getMethod())) {
                answerTrace(request, response);
                return;
            }
            String duplicate = duplicateCredentialHeader(request.getCoyoteRequest().getMimeHeaders());
            if (duplicate != null) {
                refuse(request, response, "the request carries " + duplicate + " more than once",
                        Map.of("header", duplicate), false);
                return;
            }
            HeadLines lines = headLines(request);
            if (lines.fault() != null) {
                refuse(request, response, "the request is not valid HTTP/1.1: " + lines.fault(), Map.of(), true);
                return;
            }
            if (!lines.paddedCredentials().isEmpty()) {
                request.setAttribute(PADDED_CREDENTIALS, lines.paddedCredentials());
            }
            getNext().invoke(request, response);
        }

        private static String duplicateCredentialHeader(MimeHeaders headers) {
            Set<String> seen = null;
            for (int i = 0; i < headers.size(); i++) {
                MessageBytes header = headers.getName(i);
                if (!header.equalsIgnoreCase("authorization") && !header.startsWithIgnoreCase(WALLET_HEADER_PREFIX, 0)
                        && !header.equalsIgnoreCase(VOUCHER_HEADER)) {
                    continue; // compared in place: most requests carry no credential header
                }
                String name = header.toString().toLowerCase(Locale.ROOT);
                if (seen == null) {
                    seen = new HashSet<>();
                }
                if (!seen.add(name)) {
                    return canonical(name);
                }
            }
            return null;
        }

        /** The head's lines, read from Tomcat's input buffer through the request target's bytes. */
        private static HeadLines headLines(Request request) {
            if (!request.getProtocol().startsWith("HTTP/1.")) {
                return new HeadLines(null, Set.of());
            }
            MessageBytes target = request.getCoyoteRequest().requestURI();
            if (target.getType() != MessageBytes.T_BYTES) {
                return new HeadLines(null, Set.of());
            }
            ByteChunk bytes = target.getByteChunk();
            if (bytes.getBuffer() == null || bytes.getStart() < 0) {
                return new HeadLines(null, Set.of());
            }
            return readLines(bytes.getBuffer(), bytes.getStart());
        }

        /** Tomcat has refused the method (405, {@code Allow}, suspended response); the body is this service's. */
        private void answerTrace(Request request, Response response) throws IOException {
            String allow = response.getHeader(HttpHeaders.ALLOW);
            response.setSuspended(false);
            response.resetBuffer();
            if (allow == null) {
                response.setHeader(HttpHeaders.ALLOW, "GET, HEAD, POST, PUT, DELETE, OPTIONS");
            }
            log.debug("refused TRACE {}", request.getRequestURI());
            ErrorBodies.write(request.getRequestURI(), response, mapper, HttpStatus.METHOD_NOT_ALLOWED,
                    "method_not_allowed", "method TRACE is not supported", Map.of());
        }

        private void refuse(Request request, Response response, String detail, Map<String, Object> properties,
                            boolean closeConnection) throws IOException {
            log.debug("refused {} {}: {}", request.getMethod(), request.getRequestURI(), detail);
            if (closeConnection) {
                response.setHeader(HttpHeaders.CONNECTION, "close");
            }
            ErrorBodies.write(request.getRequestURI(), response, mapper, HttpStatus.BAD_REQUEST, "malformed_request",
                    detail, properties);
        }

        private static String canonical(String lowercaseName) {
            if (lowercaseName.equals("authorization")) {
                return HttpHeaders.AUTHORIZATION;
            }
            if (lowercaseName.equals(VOUCHER_HEADER)) {
                return "X-CHAN-Voucher";
            }
            String suffix = lowercaseName.substring(WALLET_HEADER_PREFIX.length());
            return "X-CHAN-Auth-" + (suffix.isEmpty() ? "" : Character.toUpperCase(suffix.charAt(0)) + suffix.substring(1));
        }
    }
}
