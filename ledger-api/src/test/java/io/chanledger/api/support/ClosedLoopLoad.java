package io.chanledger.api.support;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The benchmarks' load generator: one thread per client, each sending its own requests one after
 * the other (a closed loop), all starting together. Reports the rate of 200 answers and latency
 * percentiles; the first few failures are printed to stderr.
 */
public final class ClosedLoopLoad {

    /** Answers with status 200 per second, latency percentiles in milliseconds, failed requests. */
    public record Result(int requests, double perSecond, double p50Millis, double p99Millis, long errors) {
    }

    private ClosedLoopLoad() {
    }

    public static Result run(HttpClient http, List<List<HttpRequest>> requestsPerClient) throws InterruptedException {
        int total = requestsPerClient.stream().mapToInt(List::size).sum();
        long[] latencies = new long[total];
        AtomicLong next = new AtomicLong();
        AtomicLong errors = new AtomicLong();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (List<HttpRequest> mine : requestsPerClient) {
            threads.add(Thread.ofPlatform().start(() -> {
                try {
                    start.await();
                    for (HttpRequest request : mine) {
                        long t0 = System.nanoTime();
                        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
                        latencies[(int) next.getAndIncrement()] = System.nanoTime() - t0;
                        if (response.statusCode() != 200 && errors.incrementAndGet() <= 3) {
                            System.err.println(response.statusCode() + " " + response.body());
                        }
                    }
                } catch (Exception e) {
                    errors.incrementAndGet();
                    System.err.println("client failed: " + e);
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
                percentile(done, 0.99), errors.get());
    }

    private static double percentile(long[] sorted, double p) {
        if (sorted.length == 0) {
            return 0;
        }
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p * sorted.length) - 1)] / 1e6;
    }
}
