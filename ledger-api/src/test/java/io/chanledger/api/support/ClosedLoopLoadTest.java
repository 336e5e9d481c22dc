package io.chanledger.api.support;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The benches' load generator against a server that frames its answers with a length or in chunks,
 * and sometimes closes the connection after one: every request must arrive whole and in its
 * client's order, every answer be read to its end (or the next request on the connection would be
 * misread), and an answer other than 200 counted as an error.
 */
class ClosedLoopLoadTest {

    private HttpServer server;
    private final Map<String, List<String>> received = new ConcurrentHashMap<>();
    private final AtomicInteger connectionsClosed = new AtomicInteger();

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            String path = exchange.getRequestURI().getPath();
            received.computeIfAbsent(exchange.getRequestHeaders().getFirst("X-Client"), c -> new ArrayList<>())
                    .add(body);
            byte[] answer = ("{\"echo\":\"" + body.replace("\"", "'") + "\"}").getBytes(StandardCharsets.UTF_8);
            if (path.endsWith("/close")) {
                connectionsClosed.incrementAndGet();
                exchange.getResponseHeaders().set("Connection", "close");
            }
            int status = path.endsWith("/refused") ? 402 : 200;
            // 0: chunked; a length: as given
            exchange.sendResponseHeaders(status, path.endsWith("/chunked") ? 0 : answer.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(answer);
            }
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    @Test
    void everyRequestArrivesWholeAndInOrderWhateverFramingTheAnswersCome() throws Exception {
        String base = "http://127.0.0.1:" + server.getAddress().getPort();
        String[] paths = {"/length", "/chunked", "/close", "/chunked", "/length"};
        List<List<ClosedLoopLoad.Request>> clients = new ArrayList<>();
        for (int c = 0; c < 4; c++) {
            List<ClosedLoopLoad.Request> mine = new ArrayList<>();
            for (int n = 0; n < 50; n++) {
                mine.add(ClosedLoopLoad.post(base + paths[n % paths.length], "{\"client\":" + c + ",\"n\":" + n
                        + ",\"text\":\"ünïcødé\"}", "X-Client", "c" + c));
            }
            clients.add(mine);
        }

        ClosedLoopLoad.Result result = ClosedLoopLoad.run(clients);

        assertThat(result.requests()).isEqualTo(200);
        assertThat(result.errors()).isZero();
        for (int c = 0; c < 4; c++) {
            List<String> expected = new ArrayList<>();
            for (int n = 0; n < 50; n++) {
                expected.add("{\"client\":" + c + ",\"n\":" + n + ",\"text\":\"ünïcødé\"}");
            }
            assertThat(received.get("c" + c)).containsExactlyElementsOf(expected);
        }
        assertThat(connectionsClosed.get()).isEqualTo(40);
        // each client's first connection, and one after each of its ten closed ones
        assertThat(result.connections()).isEqualTo(44);
    }

    /**
     * An answer with neither a length nor chunks ends with its connection (as an HTTP/1.0 server
     * answers): read to that end, and the client's next request goes on a new connection. The
     * JDK's test server always frames its answers, so this server is a socket that answers one
     * request per connection.
     */
    @Test
    void anAnswerWithoutFramingIsReadToTheConnectionsEndAndTheNextRequestReconnects() throws Exception {
        List<String> bodies = new ArrayList<>();
        AtomicInteger connections = new AtomicInteger();
        try (ServerSocket unframed = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread serving = Thread.ofPlatform().daemon().start(() -> {
                while (!unframed.isClosed()) {
                    try (Socket socket = unframed.accept()) {
                        connections.incrementAndGet();
                        BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(),
                                StandardCharsets.ISO_8859_1));
                        int length = 0;
                        for (String header = in.readLine(); !header.isEmpty(); header = in.readLine()) {
                            if (header.toLowerCase().startsWith("content-length:")) {
                                length = Integer.parseInt(header.substring(15).strip());
                            }
                        }
                        char[] body = new char[length];
                        for (int read = 0; read < length; ) {
                            read += in.read(body, read, length - read);
                        }
                        bodies.add(new String(body));
                        String status = bodies.size() % 3 == 0 ? "402 Payment Required" : "200 OK";
                        OutputStream out = socket.getOutputStream();
                        // an answer longer than the generator's read buffer, so it takes several reads
                        out.write(("HTTP/1.1 " + status + "\r\nContent-Type: text/plain\r\n\r\n"
                                + "x".repeat(10_000)).getBytes(StandardCharsets.ISO_8859_1));
                    } catch (IOException closed) {
                        // the test is over
                    }
                }
            });
            String base = "http://127.0.0.1:" + unframed.getLocalPort();
            List<ClosedLoopLoad.Request> mine = new ArrayList<>();
            for (int n = 0; n < 9; n++) {
                mine.add(ClosedLoopLoad.post(base + "/unframed", "{\"n\":" + n + "}"));
            }

            ClosedLoopLoad.Result result = ClosedLoopLoad.run(List.of(mine));

            assertThat(result.requests()).isEqualTo(9);
            assertThat(result.errors()).isEqualTo(3);
            assertThat(connections.get()).isEqualTo(9);
            assertThat(result.connections()).isEqualTo(9);
            assertThat(bodies).containsExactly("{\"n\":0}", "{\"n\":1}", "{\"n\":2}", "{\"n\":3}", "{\"n\":4}",
                    "{\"n\":5}", "{\"n\":6}", "{\"n\":7}", "{\"n\":8}");
            unframed.close();
            serving.join(5_000);
        }
    }

    @Test
    void answersOtherThan200CountAsErrors() throws Exception {
        String base = "http://127.0.0.1:" + server.getAddress().getPort();
        List<ClosedLoopLoad.Request> mine = new ArrayList<>();
        for (int n = 0; n < 10; n++) {
            mine.add(ClosedLoopLoad.post(base + (n % 2 == 0 ? "/refused" : "/length"), "{}", "X-Client", "c"));
        }

        ClosedLoopLoad.Result result = ClosedLoopLoad.run(List.of(mine));

        assertThat(result.requests()).isEqualTo(10);
        assertThat(result.errors()).isEqualTo(5);
        assertThat(received.get("c")).hasSize(10);
    }
}
