package io.chanledger.api.marketplace.directory;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.InetAddress;
import java.net.URI;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import okhttp3.Call;
import okhttp3.ConnectionPool;
import okhttp3.Headers;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.ResponseBody;
import okio.BufferedSource;

/**
 * One provider's base URL and the addresses its host resolved to, checked by the
 * {@link AddressPolicy} once: every call of one connection test or one health check goes to
 * those addresses and nowhere else (the name is not asked again), with the URL's own host in the
 * Host header, the TLS server name and the certificate check. The first call resolves. A refused
 * address, a name that does not resolve and a connection that fails all read
 * {@value ProbeFailure#UNREACHABLE}, nothing more, whichever it was. Closing it drops its
 * connections.
 */
final class ProviderTarget implements AutoCloseable {

    private static final String USER_AGENT = "chan-marketplace-probe";

    /** An answer read whole: its status, headers and body. */
    record Reply(int status, Headers headers, byte[] body) {

        Optional<String> header(String name) {
            return Optional.ofNullable(headers.get(name));
        }
    }

    private final URI apiUrl;
    private final AddressPolicy policy;
    private final OkHttpClient shared;
    private final int maxResponseBytes;
    private OkHttpClient pinned;
    private String refusal;

    /** {@code shared}: follows no redirects and uses no proxy, so it connects where it is told to. */
    ProviderTarget(URI apiUrl, AddressPolicy policy, OkHttpClient shared, int maxResponseBytes) {
        this.apiUrl = apiUrl;
        this.policy = policy;
        this.shared = shared;
        this.maxResponseBytes = maxResponseBytes;
    }

    URI apiUrl() {
        return apiUrl;
    }

    /** Calls {@code {apiUrl}{path}}, answered within {@code deadlineNanos} ({@link System#nanoTime}). */
    Reply send(String path, Request.Builder request, long deadlineNanos) throws ProbeFailure {
        OkHttpClient client = client();
        long remaining = deadlineNanos - System.nanoTime();
        if (remaining <= 0) {
            throw new ProbeFailure(path + " was not called: no time left");
        }
        HttpUrl url = HttpUrl.parse(apiUrl + path);
        if (url == null) {
            throw ProbeFailure.unreachable(apiUrl + path + " is no URL an HTTP client can call");
        }
        Call call = client.newCall(request.url(url).header("User-Agent", USER_AGENT).build());
        call.timeout().timeout(remaining, TimeUnit.NANOSECONDS);
        try (Response response = call.execute()) {
            return new Reply(response.code(), response.headers(), read(response.body(), path));
        } catch (InterruptedIOException e) {
            throw new ProbeFailure(path + " did not answer in time");
        } catch (IOException e) {
            throw ProbeFailure.unreachable(path + ": " + e);
        }
    }

    private byte[] read(ResponseBody body, String path) throws IOException, ProbeFailure {
        if (body == null) {
            return new byte[0];
        }
        BufferedSource source = body.source();
        if (body.contentLength() > maxResponseBytes || source.request(maxResponseBytes + 1L)) {
            throw new ProbeFailure(path + " failed: the response is larger than " + maxResponseBytes + " bytes");
        }
        return source.getBuffer().readByteArray();
    }

    /** The client bound to the checked addresses, resolving the host on the first call. */
    private synchronized OkHttpClient client() throws ProbeFailure {
        if (pinned == null && refusal == null) {
            try {
                List<InetAddress> addresses = policy.resolve(apiUrl.getHost());
                pinned = shared.newBuilder()
                        .dns(hostname -> addresses)
                        .connectionPool(new ConnectionPool(1, 1, TimeUnit.MINUTES))
                        .build();
            } catch (AddressPolicy.Refused e) {
                refusal = e.getMessage();
            }
        }
        if (refusal != null) {
            throw ProbeFailure.unreachable(refusal);
        }
        return pinned;
    }

    @Override
    public synchronized void close() {
        if (pinned != null) {
            pinned.connectionPool().evictAll();
        }
    }
}
