package io.chanledger.api.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * A response body read into memory up to a limit; a larger one fails with {@link TooLarge}, and the
 * connection is given up, instead of filling the heap.
 */
public final class LimitedBody implements HttpResponse.BodySubscriber<byte[]> {

    /** The body passed its limit. */
    public static final class TooLarge extends IOException {

        TooLarge(long maxBytes) {
            super("the response is larger than " + maxBytes + " bytes");
        }
    }

    private final long maxBytes;
    private final ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    private final CompletableFuture<byte[]> result = new CompletableFuture<>();
    private Flow.Subscription subscription;

    private LimitedBody(long maxBytes) {
        this.maxBytes = maxBytes;
    }

    public static HttpResponse.BodyHandler<byte[]> handler(long maxBytes) {
        return info -> new LimitedBody(maxBytes);
    }

    public static HttpResponse.BodySubscriber<byte[]> subscriber(long maxBytes) {
        return new LimitedBody(maxBytes);
    }

    @Override
    public CompletionStage<byte[]> getBody() {
        return result;
    }

    @Override
    public void onSubscribe(Flow.Subscription s) {
        subscription = s;
        s.request(Long.MAX_VALUE);
    }

    @Override
    public void onNext(List<ByteBuffer> items) {
        if (result.isDone()) {
            return;
        }
        for (ByteBuffer item : items) {
            if (buffer.size() + item.remaining() > maxBytes) {
                subscription.cancel();
                result.completeExceptionally(new TooLarge(maxBytes));
                return;
            }
            byte[] chunk = new byte[item.remaining()];
            item.get(chunk);
            buffer.writeBytes(chunk);
        }
    }

    @Override
    public void onError(Throwable throwable) {
        result.completeExceptionally(throwable);
    }

    @Override
    public void onComplete() {
        result.complete(buffer.toByteArray());
    }
}
