package io.chanledger.api.provider.gateway;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * An OpenAI-compatible chat API on loopback, over a plain socket, that answers part of a request
 * and then stalls with the connection open, as a hung upstream does: no response at all, the
 * headers of a JSON answer but not its body, or the first events of a stream and then nothing.
 * It notices when the gateway hangs up ({@link #hungUp()}); a stall it is never released from
 * ends after {@link #STALL_LIMIT_MILLIS}, far beyond any deadline under test.
 */
final class StallingUpstream implements AutoCloseable {

    enum Mode { NO_HEADERS, HEADERS_THEN_STALL, CHUNKS_THEN_STALL }

    static final int STALL_LIMIT_MILLIS = 60_000;

    private final ServerSocket server;
    private final Set<Socket> connections = ConcurrentHashMap.newKeySet();
    private final CountDownLatch stalled = new CountDownLatch(1);
    private final CountDownLatch hungUp = new CountDownLatch(1);
    volatile Mode mode = Mode.HEADERS_THEN_STALL;
    volatile int chunksBeforeStall = 3;
    /** When the stall began: the {@link System#nanoTime()} after the last byte it sent. */
    volatile long stalledAt;

    StallingUpstream() {
        try {
            server = new ServerSocket(0, 16, InetAddress.getLoopbackAddress());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Thread acceptor = new Thread(this::accept, "stalling-upstream");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    String baseUrl() {
        return "http://127.0.0.1:" + server.getLocalPort() + "/v1";
    }

    /** Waits until a request has been answered as far as the mode goes and the stall began ({@link #stalledAt}). */
    boolean awaitStall(long seconds) throws InterruptedException {
        return stalled.await(seconds, TimeUnit.SECONDS);
    }

    /** Waits until the gateway closed a stalled connection. */
    boolean awaitHangUp(long seconds) throws InterruptedException {
        return hungUp.await(seconds, TimeUnit.SECONDS);
    }

    boolean hungUp() {
        return hungUp.getCount() == 0;
    }

    /** The events a stream sends before it stalls, in order. */
    static String chunk(int i) {
        return "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\" word" + i + "\"}}]}";
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket socket = server.accept();
                connections.add(socket);
                Thread handler = new Thread(() -> handle(socket), "stalling-upstream-connection");
                handler.setDaemon(true);
                handler.start();
            } catch (IOException closed) {
                return;
            }
        }
    }

    private void handle(Socket socket) {
        try (socket) {
            InputStream in = socket.getInputStream();
            readRequest(in);
            OutputStream out = socket.getOutputStream();
            switch (mode) {
                case NO_HEADERS -> {
                }
                case HEADERS_THEN_STALL -> write(out, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                        + "Content-Length: 400\r\n\r\n{\"id\":\"chatcmpl-stalled\",");
                case CHUNKS_THEN_STALL -> {
                    // no length and no chunked encoding: the body runs until the connection closes
                    write(out, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n");
                    for (int i = 0; i < chunksBeforeStall; i++) {
                        write(out, "data: " + chunk(i) + "\n\n");
                    }
                }
            }
            stalledAt = System.nanoTime();
            stalled.countDown();
            // the stall: nothing more is sent; a read ends when the gateway closes the connection
            socket.setSoTimeout(STALL_LIMIT_MILLIS);
            try {
                if (in.read() < 0) {
                    hungUp.countDown();
                }
            } catch (SocketTimeoutException neverReleased) {
                // the gateway kept waiting: give up, which the test sees as a slow answer
            } catch (IOException reset) {
                hungUp.countDown();
            }
        } catch (IOException e) {
            // the test is over or the gateway went away early
        } finally {
            connections.remove(socket);
        }
    }

    /** Reads the request head and its Content-Length body, so that the client is not left sending. */
    private static void readRequest(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        byte[] end = {'\r', '\n', '\r', '\n'};
        while (matched < end.length) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("the request ended early");
            }
            head.write(b);
            matched = b == end[matched] ? matched + 1 : b == '\r' ? 1 : 0;
        }
        long length = 0;
        for (String line : head.toString(StandardCharsets.ISO_8859_1).split("\r\n")) {
            if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                length = Long.parseLong(line.substring("content-length:".length()).strip());
            }
        }
        in.readNBytes((int) length);
    }

    private static void write(OutputStream out, String text) throws IOException {
        out.write(text.getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException ignored) {
            // nothing to release
        }
        connections.forEach(socket -> {
            try {
                socket.close();
            } catch (IOException ignored) {
                // already gone
            }
        });
    }
}
