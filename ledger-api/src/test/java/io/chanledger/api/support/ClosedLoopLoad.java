package io.chanledger.api.support;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The benchmarks' load generator: one thread per client, each sending its own requests one after
 * the other (a closed loop) over kept-alive HTTP/1.1 connections of its own, all starting together.
 * Reports the rate of 200 answers and latency percentiles; the first few failures are printed to
 * stderr.
 *
 * <p>It shares two cores with the service and its database, so what it spends is taken from
 * them: each request is encoded to bytes before the clock starts and written to a plain socket,
 * and an answer is read only as far as its framing needs. A general client's per-request machinery
 * is what this leaves out: the JDK's {@code HttpClient}, which the benches used before, spent about
 * as much CPU per voucher as PostgreSQL did (BENCHMARKS.md, "Voucher admission"), where pgbench, the
 * baseline the vouchers are compared with, spends a tenth of that per commit.
 */
public final class ClosedLoopLoad {

    /**
     * Answers with status 200 per second, latency percentiles in milliseconds, failed requests,
     * and the connections the clients opened (one each, unless the server closed some).
     */
    public record Result(int requests, double perSecond, double p50Millis, double p99Millis, long errors,
                         long connections) {
    }

    /** A request as its bytes, and the server it goes to ({@code host:port}). */
    public record Request(String authority, byte[] bytes) {
    }

    private ClosedLoopLoad() {
    }

    /**
     * A POST of a JSON body to {@code url} ({@code http://host:port/path}), with extra headers as
     * name, value, name, value ….
     */
    public static Request post(String url, String body, String... headers) {
        return request("POST", url, body.getBytes(StandardCharsets.UTF_8), headers);
    }

    /** A GET of {@code url} ({@code http://host:port/path}), with extra headers as name, value, …. */
    public static Request get(String url, String... headers) {
        return request("GET", url, null, headers);
    }

    /** The request's bytes: its head, and a JSON body when {@code content} is not null. */
    private static Request request(String method, String url, byte[] content, String... headers) {
        URI uri = URI.create(url);
        String authority = uri.getHost() + ":" + uri.getPort();
        StringBuilder head = new StringBuilder(method).append(' ').append(uri.getRawPath())
                .append(" HTTP/1.1\r\nHost: ").append(authority).append("\r\n");
        if (content != null) {
            head.append("Content-Type: application/json\r\nContent-Length: ").append(content.length).append("\r\n");
        }
        for (int i = 0; i < headers.length; i += 2) {
            head.append(headers[i]).append(": ").append(headers[i + 1]).append("\r\n");
        }
        byte[] start = head.append("\r\n").toString().getBytes(StandardCharsets.UTF_8);
        if (content == null) {
            return new Request(authority, start);
        }
        byte[] bytes = Arrays.copyOf(start, start.length + content.length);
        System.arraycopy(content, 0, bytes, start.length, content.length);
        return new Request(authority, bytes);
    }

    public static Result run(List<List<Request>> requestsPerClient) throws InterruptedException {
        int total = requestsPerClient.stream().mapToInt(List::size).sum();
        long[] latencies = new long[total];
        AtomicLong next = new AtomicLong();
        AtomicLong errors = new AtomicLong();
        AtomicLong opened = new AtomicLong();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (List<Request> mine : requestsPerClient) {
            threads.add(Thread.ofPlatform().start(() -> {
                Map<String, Connection> connections = new HashMap<>();
                try {
                    start.await();
                    for (Request request : mine) {
                        long t0 = System.nanoTime();
                        Connection connection = connections.get(request.authority());
                        if (connection == null) {
                            connection = new Connection(request.authority());
                            connections.put(request.authority(), connection);
                            opened.incrementAndGet();
                        }
                        int status = connection.exchange(request.bytes());
                        latencies[(int) next.getAndIncrement()] = System.nanoTime() - t0;
                        if (connection.closedByServer) {
                            connections.remove(request.authority()).close();
                        }
                        if (status != 200 && errors.incrementAndGet() <= 3) {
                            System.err.println(status + " " + connection.lastBody());
                        }
                    }
                } catch (Exception e) {
                    errors.incrementAndGet();
                    System.err.println("client failed: " + e);
                } finally {
                    connections.values().forEach(Connection::close);
                }
            }));
        }
        long begin = System.nanoTime();
        start.countDown();
        for (Thread t : threads) {
            t.join();
        }
        double seconds = (System.nanoTime() - begin) / 1e9;
        long[] done = Arrays.copyOf(latencies, (int) next.get());
        Arrays.sort(done);
        return new Result(done.length, (done.length - errors.get()) / seconds, percentile(done, 0.50),
                percentile(done, 0.99), errors.get(), opened.get());
    }

    private static double percentile(long[] sorted, double p) {
        if (sorted.length == 0) {
            return 0;
        }
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p * sorted.length) - 1)] / 1e6;
    }

    /** One kept-alive connection: a request written, its answer read to the end of its body. */
    private static final class Connection {

        private final Socket socket;
        private final OutputStream out;
        private final InputStream in;
        private final ByteArrayOutputStream body = new ByteArrayOutputStream();
        private final byte[] buffer = new byte[4096];
        private final StringBuilder line = new StringBuilder();
        private boolean closedByServer;

        Connection(String authority) throws IOException {
            int colon = authority.lastIndexOf(':');
            socket = new Socket(authority.substring(0, colon), Integer.parseInt(authority.substring(colon + 1)));
            socket.setTcpNoDelay(true);
            socket.setSoTimeout(60_000);
            out = socket.getOutputStream();
            in = new BufferedInputStream(socket.getInputStream(), 16_384);
        }

        /** Sends the request and reads its answer; returns the answer's status. */
        int exchange(byte[] request) throws IOException {
            out.write(request);
            out.flush();
            String statusLine = readLine();
            int status = Integer.parseInt(statusLine.substring(9, 12));
            long length = -1;
            boolean chunked = false;
            for (String header = readLine(); !header.isEmpty(); header = readLine()) {
                int colon = header.indexOf(':');
                String name = header.substring(0, colon).strip().toLowerCase(Locale.ROOT);
                String value = header.substring(colon + 1).strip();
                switch (name) {
                    case "content-length" -> length = Long.parseLong(value);
                    case "transfer-encoding" -> chunked = value.toLowerCase(Locale.ROOT).contains("chunked");
                    case "connection" -> closedByServer = value.equalsIgnoreCase("close");
                    default -> { }
                }
            }
            // the body is kept only for an answer that is not a 200, to be printed
            body.reset();
            boolean keep = status != 200;
            if (chunked) {
                for (long size = chunkSize(); size > 0; size = chunkSize()) {
                    copy(size, keep);
                    readLine();
                }
                for (String trailer = readLine(); !trailer.isEmpty(); trailer = readLine()) {
                    // trailers are not needed
                }
            } else if (length >= 0) {
                copy(length, keep);
            } else {
                // no length: the body ends with the connection
                closedByServer = true;
                copy(-1, keep);
            }
            return status;
        }

        String lastBody() {
            return body.toString(StandardCharsets.UTF_8);
        }

        private long chunkSize() throws IOException {
            String size = readLine();
            int extension = size.indexOf(';');
            return Long.parseLong((extension < 0 ? size : size.substring(0, extension)).strip(), 16);
        }

        /** Reads {@code count} bytes of the body, or to the end of the stream when {@code count} is -1. */
        private void copy(long count, boolean keep) throws IOException {
            boolean toEnd = count < 0;
            while (toEnd || count > 0) {
                int n = in.read(buffer, 0, toEnd ? buffer.length : (int) Math.min(buffer.length, count));
                if (n < 0) {
                    if (toEnd) {
                        return;
                    }
                    throw new EOFException("the answer ended early");
                }
                if (keep) {
                    body.write(buffer, 0, n);
                }
                count -= n;
            }
        }

        /** A line of the answer's framing (ISO-8859-1), without its CRLF. */
        private String readLine() throws IOException {
            line.setLength(0);
            for (int b = in.read(); b != '\n'; b = in.read()) {
                if (b < 0) {
                    throw new EOFException("the connection ended in an answer's framing");
                }
                if (b != '\r') {
                    line.append((char) b);
                }
            }
            return line.toString();
        }

        void close() {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing a connection the bench no longer needs
            }
        }
    }
}
