package io.chanledger.api.provider.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Any OpenAI-compatible chat completions API at {@code baseUrl} ({@code POST {baseUrl}/chat/completions}).
 * The request body goes up byte for byte as the client sent it: the gateway adds no output limit
 * and asks for no usage the client did not ask for, so the answer is the one the client would
 * have had from the upstream directly. The API key goes in the Authorization header and nowhere
 * else. A stream is read line by line as server-sent events; closing it early closes the
 * connection, which cancels the upstream request.
 *
 * <p>Every call has deadlines ({@link Deadlines}), since a paid request holds room on its channel
 * (and blocks the channel's close) for as long as it runs: a whole answer must arrive, headers
 * and body, within {@code answer}; a stream must send its first event within
 * {@code streamFirstByte}, never go quiet for longer than {@code streamIdle} while it is waited
 * for, and end within {@code stream}. The HTTP client's own request timeout only covers the wait
 * for the response headers, so the rest is enforced here: a whole answer is awaited with a time
 * limit and its exchange cancelled after it; a stream's body is closed by a watchdog, which wakes
 * the thread blocked reading it. Either way the connection is dropped and the call fails with
 * {@link UpstreamException#timedOut()}.
 */
final class OpenAiUpstream implements Upstream {

    /**
     * The longest an exchange may take: {@code answer} a whole (non-streamed) answer;
     * {@code streamFirstByte} from sending a streamed request to its first line,
     * {@code streamIdle} the longest wait for each next line, {@code stream} the whole stream.
     */
    record Deadlines(Duration answer, Duration streamFirstByte, Duration streamIdle, Duration stream) {

        Deadlines {
            for (Duration limit : List.of(answer, streamFirstByte, streamIdle, stream)) {
                if (limit.isZero() || limit.isNegative()) {
                    throw new IllegalArgumentException("every deadline must be above 0");
                }
            }
        }

        /** The longest any one exchange may run. */
        Duration longest() {
            return answer.compareTo(stream) >= 0 ? answer : stream;
        }
    }

    /**
     * One daemon thread that only checks streams' deadlines and closes the bodies of those past
     * one: quick, non-blocking work. A check cancelled when its stream ends is dropped at once.
     */
    private static final ScheduledThreadPoolExecutor WATCHDOG = watchdog();

    private static ScheduledThreadPoolExecutor watchdog() {
        ScheduledThreadPoolExecutor watchdog = new ScheduledThreadPoolExecutor(1, task -> {
            Thread thread = new Thread(task, "upstream-stream-watchdog");
            thread.setDaemon(true);
            return thread;
        });
        watchdog.setRemoveOnCancelPolicy(true);
        return watchdog;
    }

    private final HttpClient http;
    private final URI endpoint;
    private final String apiKey;
    private final Deadlines deadlines;
    private final ObjectMapper json;

    /** An upstream whose every deadline is {@code timeout}. */
    OpenAiUpstream(String baseUrl, String apiKey, Duration connectTimeout, Duration timeout, ObjectMapper json) {
        this(baseUrl, apiKey, connectTimeout, new Deadlines(timeout, timeout, timeout, timeout), json);
    }

    OpenAiUpstream(String baseUrl, String apiKey, Duration connectTimeout, Deadlines deadlines, ObjectMapper json) {
        String base = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
        this.endpoint = URI.create(base + "/chat/completions");
        this.apiKey = apiKey;
        this.deadlines = deadlines;
        this.json = json;
        // HTTP/1.1: a stream abandoned half-way closes its own connection instead of lingering in a pool
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(connectTimeout)
                .followRedirects(HttpClient.Redirect.NEVER).build();
    }

    Deadlines deadlines() {
        return deadlines;
    }

    @Override
    public Completion complete(ChatRequest request) {
        long deadline = System.nanoTime() + deadlines.answer().toNanos();
        // the body is read whole before the call completes, so one time limit covers headers and body
        HttpResponse<byte[]> response = await(http.sendAsync(request(request, "application/json", deadlines.answer()),
                info -> info.statusCode() / 100 == 2 ? HttpResponse.BodySubscribers.ofByteArray()
                        : HttpResponse.BodySubscribers.replacing(null)), deadline,
                "the upstream did not answer within " + deadlines.answer().toMillis() + " ms");
        if (response.statusCode() / 100 != 2) {
            throw new UpstreamException("the upstream answered HTTP " + response.statusCode(), null);
        }
        try {
            JsonNode answer = json.readTree(response.body());
            if (!(answer instanceof ObjectNode object)) {
                throw new UpstreamException("the upstream's answer is not a JSON object", null);
            }
            return new Completion(object, Usage.of(object.get("usage")), contentOf(object));
        } catch (IOException e) {
            throw new UpstreamException("the upstream's answer could not be read: " + e.getClass().getSimpleName(), e);
        }
    }

    @Override
    public Stream stream(ChatRequest request) {
        long started = System.nanoTime();
        HttpResponse<InputStream> response = await(http.sendAsync(
                request(request, "text/event-stream", deadlines.streamFirstByte()),
                HttpResponse.BodyHandlers.ofInputStream()), started + deadlines.streamFirstByte().toNanos(),
                "the upstream sent nothing for " + deadlines.streamFirstByte().toMillis() + " ms");
        if (response.statusCode() / 100 != 2) {
            closeQuietly(response.body());
            throw new UpstreamException("the upstream answered HTTP " + response.statusCode(), null);
        }
        return new SseStream(response.body(), started);
    }

    private HttpRequest request(ChatRequest request, String accept, Duration headersTimeout) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(endpoint)
                .timeout(headersTimeout)
                .header("Content-Type", "application/json")
                .header("Accept", accept)
                .POST(HttpRequest.BodyPublishers.ofByteArray(request.sentBody()));
        if (!GatewayProperties.blank(apiKey)) {
            builder.header("Authorization", "Bearer " + apiKey);
        }
        return builder.build();
    }

    /**
     * The call's response by {@code deadline} (a {@link System#nanoTime()}); past it the exchange
     * is cancelled and the call fails with {@code late}.
     */
    private static <T> HttpResponse<T> await(CompletableFuture<HttpResponse<T>> call, long deadline, String late) {
        try {
            return call.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            // cancelling the client's future aborts the exchange and closes its connection
            call.cancel(true);
            throw UpstreamException.timeout(late);
        } catch (InterruptedException e) {
            call.cancel(true);
            Thread.currentThread().interrupt();
            throw new UpstreamException("interrupted while calling the upstream", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof HttpConnectTimeoutException || cause instanceof ConnectException) {
                throw new UpstreamException("the upstream could not be reached: " + cause.getClass().getSimpleName(),
                        cause);
            }
            // the client's own request timeout, the same deadline, may end the exchange first (and
            // newer clients apply it to the body too, wrapped in the IOException that ended it)
            for (Throwable c = cause; c != null; c = c.getCause()) {
                if (c instanceof HttpTimeoutException) {
                    throw UpstreamException.timeout(late);
                }
            }
            throw new UpstreamException("the upstream call failed: "
                    + (cause == null ? "unknown" : cause.getClass().getSimpleName()), cause);
        }
    }

    private static String contentOf(JsonNode answer) {
        JsonNode content = answer.path("choices").path(0).path("message").path("content");
        return content.isTextual() ? content.textValue() : "";
    }

    private static void closeQuietly(InputStream body) {
        try {
            body.close();
        } catch (IOException ignored) {
            // the connection is being given up anyway
        }
    }

    /**
     * A stream's deadlines: closes its body, which wakes the thread blocked reading it, once the
     * upstream has kept the reader waiting longer than allowed (the first byte, then each next
     * line) or the stream has run past its whole limit. Time the relay spends between reads
     * (writing to a slow client, asking the ledger for more hold) does not count as the
     * upstream's silence. At most one check is pending at a time, due no later than the earliest
     * moment a limit could be passed: each check reschedules itself for the next such moment, and
     * a wait that starts with a nearer limit than the pending check's (the idle limit, once the
     * first line came before a longer first-byte limit) brings the check forward.
     */
    private final class StreamWatch implements Runnable {
        private final InputStream body;
        private final long endBy;
        private volatile long quietBy;
        private volatile Duration quietLimit;
        private volatile boolean waiting;
        private volatile boolean done;
        private volatile String expired;
        /** The pending check and when it is due (a {@link System#nanoTime()}); guarded by this watch. */
        private ScheduledFuture<?> check;
        private volatile long checkAt;

        /** Starts watching a stream sent at {@code started}, waiting for its first byte. */
        StreamWatch(InputStream body, long started) {
            this.body = body;
            this.endBy = started + deadlines.stream().toNanos();
            this.quietLimit = deadlines.streamFirstByte();
            this.quietBy = started + quietLimit.toNanos();
            this.waiting = true;
            checkBy(earlier(quietBy, endBy));
        }

        /** The reader waits for the next line: from now, the upstream has {@code streamIdle} to send it. */
        void awaiting() {
            quietLimit = deadlines.streamIdle();
            long by = System.nanoTime() + quietLimit.toNanos();
            quietBy = by;
            waiting = true;
            if (by - checkAt < 0) {
                checkBy(by); // rare: only a limit nearer than the pending check's takes the lock
            }
        }

        /** The upstream sent an event; the reader is not waiting for it any more. */
        void received() {
            waiting = false;
        }

        synchronized void stop() {
            done = true;
            if (check != null) {
                check.cancel(false);
            }
        }

        /** What ended the stream, or null while no limit has. */
        String expired() {
            return expired;
        }

        @Override
        public synchronized void run() {
            if (done) {
                return;
            }
            check = null;
            long now = System.nanoTime();
            if (now - endBy >= 0) {
                expire("the upstream stream ran past its limit of " + deadlines.stream().toMillis() + " ms");
            } else if (waiting && now - quietBy >= 0) {
                expire("the upstream sent nothing for " + quietLimit.toMillis() + " ms");
            } else {
                // not waiting now: a wait that starts later cannot pass its limit before now + streamIdle
                checkBy(earlier(waiting ? quietBy : now + deadlines.streamIdle().toNanos(), endBy));
            }
        }

        private void expire(String why) {
            expired = why;
            closeQuietly(body);
        }

        /** Has a check run by {@code at}: keeps the pending one if it is due by then, else replaces it. */
        private synchronized void checkBy(long at) {
            if (done || check != null && checkAt - at <= 0) {
                return;
            }
            if (check != null) {
                check.cancel(false);
            }
            checkAt = at;
            check = WATCHDOG.schedule(this, Math.max(0, at - System.nanoTime()), TimeUnit.NANOSECONDS);
        }

        private static long earlier(long a, long b) {
            return a - b <= 0 ? a : b;
        }
    }

    private final class SseStream implements Stream {
        private final InputStream body;
        private final BufferedReader lines;
        private final StreamWatch watch;
        private boolean first = true;
        private boolean ended;

        SseStream(InputStream body, long started) {
            this.body = body;
            this.lines = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8));
            this.watch = new StreamWatch(body, started);
        }

        @Override
        public Chunk next() {
            if (ended) {
                return null;
            }
            if (!first) {
                watch.awaiting(); // the first wait is the first byte's, timed from the request
            }
            first = false;
            try {
                String line;
                while ((line = readLine()) != null) {
                    if (!line.startsWith("data:")) {
                        continue; // comments, event names, ids and the blank lines between events
                    }
                    watch.received();
                    String data = line.substring(5).strip();
                    if (data.equals("[DONE]")) {
                        finish();
                        return null;
                    }
                    return chunk(data);
                }
            } catch (IOException e) {
                finish();
                if (watch.expired() != null) {
                    throw UpstreamException.timeout(watch.expired());
                }
                throw new UpstreamException("the upstream stream broke off: " + e.getClass().getSimpleName(), e);
            }
            finish();
            if (watch.expired() != null) {
                throw UpstreamException.timeout(watch.expired());
            }
            throw new UpstreamException("the upstream stream ended without [DONE]", null);
        }

        /** A line; any line, a keep-alive comment too, shows the upstream is alive and restarts the idle limit. */
        private String readLine() throws IOException {
            String line = lines.readLine();
            if (line != null && !line.startsWith("data:")) {
                watch.awaiting();
            }
            return line;
        }

        private void finish() {
            ended = true;
            watch.stop();
        }

        private Chunk chunk(String data) {
            JsonNode node;
            try {
                node = json.readTree(data);
            } catch (IOException e) {
                throw new UpstreamException("the upstream sent an event that is not JSON", e);
            }
            JsonNode choices = node.path("choices");
            JsonNode content = choices.path(0).path("delta").path("content");
            Usage usage = Usage.of(node.get("usage"));
            boolean usageOnly = usage != null && choices.isArray() && choices.isEmpty();
            return new Chunk(data, content.isTextual() ? content.textValue() : "", usage, usageOnly);
        }

        @Override
        public void close() {
            finish();
            closeQuietly(body);
        }
    }
}
