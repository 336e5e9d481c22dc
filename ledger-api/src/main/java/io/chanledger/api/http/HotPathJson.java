package io.chanledger.api.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.http.MediaType;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.http.server.ServletServerHttpRequest;

/**
 * The JSON body of a request on the payment path and the JSON of its answer, read and written
 * with a reader and writer built once, instead of through Spring MVC's message converters, which
 * look up a converter, the media types and the body's generic type for every request (a fifth of
 * a voucher's CPU time in BENCHMARKS.md, "The paid request": hot-path JSON). Failures reach the
 * handlers that answer them for the converters: a body that is not JSON, or none, is an
 * {@link HttpMessageNotReadableException}, one over the size limit carries its
 * {@link BodyTooLargeException}.
 */
public final class HotPathJson<T> {

    private final ObjectReader reader;
    private final ObjectWriter writer;

    private HotPathJson(ObjectReader reader, ObjectWriter writer) {
        this.reader = reader;
        this.writer = writer;
    }

    /** Request bodies read as JSON trees, answers written as {@code answerType}, both as {@code json} is set up. */
    public static <T> HotPathJson<T> of(ObjectMapper json, Class<T> answerType) {
        return new HotPathJson<>(json.reader(), json.writerFor(answerType));
    }

    /** The request's body as a JSON tree; never null, never a missing node. */
    public JsonNode read(HttpServletRequest request) {
        JsonNode body;
        try {
            body = reader.readTree(request.getInputStream());
        } catch (IOException e) {
            throw new HttpMessageNotReadableException("the request body is not JSON", e,
                    new ServletServerHttpRequest(request));
        }
        if (body == null || body.isMissingNode()) {
            throw new HttpMessageNotReadableException("the request body is missing", new ServletServerHttpRequest(request));
        }
        return body;
    }

    /**
     * The request's body as it was sent (empty when it has none), for a handler on the payment path
     * that parses it itself (and for a wallet signature's check, which hashes it): read as {@code @RequestBody byte[]} was, with its failures (the size
     * limit's among them) thrown as the converters threw them, but without copying every request
     * header into Spring's headers first, which a paid request's long voucher header made costly.
     */
    public static byte[] bodyBytes(HttpServletRequest request) {
        try {
            // a declared length is read into an array of that length, as the converters read it:
            // read to its end, a body of a few hundred bytes took a buffer of the stream's default
            // size (16 KiB), a sixth of all the service allocated (BENCHMARKS.md, "The paid request": hot-path JSON)
            long declared = request.getContentLengthLong();
            return declared >= 0 && declared <= Integer.MAX_VALUE
                    ? request.getInputStream().readNBytes((int) declared)
                    : request.getInputStream().readAllBytes();
        } catch (IOException e) {
            throw new HttpMessageNotReadableException("I/O error while reading the request body", e,
                    new ServletServerHttpRequest(request));
        }
    }

    /** Answers 200 with {@code answer} as JSON. */
    public void write(T answer, HttpServletResponse response) throws IOException {
        response.setStatus(HttpServletResponse.SC_OK);
        response.setContentType(MediaType.APPLICATION_JSON_VALUE);
        writer.writeValue(response.getOutputStream(), answer);
    }
}
