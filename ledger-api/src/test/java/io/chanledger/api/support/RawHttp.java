package io.chanledger.api.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * HTTP/1.1 over a plain socket, for requests that {@link java.net.http.HttpClient} refuses to send
 * (a bad {@code %} escape, {@code []} in a query, oversized headers) or bodies that stop short.
 * The request is sent as written (with {@code Connection: close}) and the answer read to the end.
 */
public final class RawHttp {

    private static final ObjectMapper JSON = new ObjectMapper();

    private RawHttp() {
    }

    public record Reply(int status, Map<String, String> headers, String body) {

        public String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }

        public String contentType() {
            return headers.getOrDefault("content-type", "");
        }

        public JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (IOException e) {
                throw new AssertionError("not JSON: " + body, e);
            }
        }
    }

    /** Sends {@code head} (request line and headers, without the blank line) and then {@code body}. */
    public static Reply exchange(int port, String head, String body) {
        return exchangeExactly(port, head + "\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n" + body);
    }

    /**
     * Sends {@code request} exactly as written (ISO-8859-1), its line endings included and nothing
     * added: it should ask for {@code Connection: close}, since the answer is read to the end.
     */
    public static Reply exchangeExactly(int port, String request) {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            return parse(readToEnd(socket.getInputStream()));
        } catch (IOException e) {
            throw new AssertionError("request failed: " + e, e);
        }
    }

    /** Everything the server sent; a reset after its answer (it closed with our bytes unread) ends it too. */
    private static byte[] readToEnd(InputStream in) throws IOException {
        ByteArrayOutputStream received = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        try {
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                received.write(buffer, 0, n);
            }
        } catch (SocketException e) {
            if (received.size() == 0) {
                throw e;
            }
        }
        return received.toByteArray();
    }

    /** Framing is read byte for byte (ISO-8859-1), the body then decoded as UTF-8. */
    private static Reply parse(byte[] raw) {
        String text = new String(raw, StandardCharsets.ISO_8859_1);
        int end = text.indexOf("\r\n\r\n");
        if (end < 0) {
            throw new AssertionError("no complete HTTP answer: " + text);
        }
        String[] lines = text.substring(0, end).split("\r\n");
        int status = Integer.parseInt(lines[0].split(" ")[1]);
        Map<String, String> headers = new TreeMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            headers.put(lines[i].substring(0, colon).strip().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).strip());
        }
        String body = text.substring(end + 4);
        if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
            body = dechunk(body);
        }
        return new Reply(status, headers, new String(body.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8));
    }

    private static String dechunk(String chunked) {
        StringBuilder body = new StringBuilder();
        int at = 0;
        while (true) {
            int lineEnd = chunked.indexOf("\r\n", at);
            int size = Integer.parseInt(chunked.substring(at, lineEnd).split(";")[0].strip(), 16);
            if (size == 0) {
                return body.toString();
            }
            body.append(chunked, lineEnd + 2, lineEnd + 2 + size);
            at = lineEnd + 2 + size + 2;
        }
    }
}
