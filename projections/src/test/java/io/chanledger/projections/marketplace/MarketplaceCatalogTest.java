package io.chanledger.projections.marketplace;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A client that reads its own write of the directory waits for the rebuild that takes it, and is
 * then answered from what the listeners made of that rebuild, never from the one before: here a
 * listener is still precomputing the new version when the client looks.
 */
class MarketplaceCatalogTest {

    /** A directory whose change counter the test moves; each snapshot carries the counter it was read at. */
    private static final class MovingReader extends CatalogReader {
        final AtomicLong version = new AtomicLong(1);

        MovingReader() {
            super(null, 10, Duration.ofDays(1));
        }

        @Override
        public CatalogSnapshot readSnapshot(Instant builtAt) {
            return new CatalogSnapshot(version.get(), builtAt, List.of());
        }

        @Override
        public long version() {
            return version.get();
        }
    }

    /** What a listener precomputed, as the directory's endpoints serve it; holds up version 2 until released. */
    private static final class SlowListing {
        volatile long served = -1;
        final CountDownLatch version2Begun = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);

        void rebuild(CatalogSnapshot snapshot) {
            if (snapshot.version() == 2) {
                version2Begun.countDown();
                try {
                    release.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            served = snapshot.version();
        }
    }

    private final MovingReader reader = new MovingReader();
    private final MarketplaceCatalog catalog = new MarketplaceCatalog(reader,
            Clock.fixed(Instant.parse("2026-11-27T00:00:00Z"), ZoneOffset.UTC), Duration.ofMillis(5), Duration.ofHours(1));
    private final SlowListing listing = new SlowListing();
    /** A thread per task: the rebuild and the read must run at once, whatever the common pool's size. */
    private final ExecutorService threads = Executors.newCachedThreadPool();

    @AfterEach
    void close() {
        listing.release.countDown();
        catalog.close();
        threads.shutdownNow();
    }

    /** Version 1 served; version 2 committed and being precomputed by a rebuild on another thread. */
    private CompletableFuture<CatalogSnapshot> version2BeingPrecomputed() throws InterruptedException {
        catalog.addListener(listing::rebuild);
        catalog.refreshNow();
        assertThat(listing.served).isEqualTo(1);
        reader.version.set(2);
        CompletableFuture<CatalogSnapshot> rebuild = CompletableFuture.supplyAsync(catalog::refreshNow, threads);
        assertThat(listing.version2Begun.await(10, TimeUnit.SECONDS)).isTrue();
        return rebuild;
    }

    @Test
    void aSnapshotIsCurrentOnlyOnceEveryListenerHasIt() throws Exception {
        CompletableFuture<CatalogSnapshot> rebuild = version2BeingPrecomputed();

        assertThat(catalog.current().version()).as("while a listener precomputes it").isEqualTo(1);
        assertThat(catalog.awaitSnapshot(s -> s.version() == 2, Duration.ofMillis(100))).isFalse();

        listing.release.countDown();
        assertThat(rebuild.get(10, TimeUnit.SECONDS).version()).isEqualTo(2);
        assertThat(catalog.awaitSnapshot(s -> s.version() == 2, Duration.ofSeconds(10))).isTrue();
        assertThat(listing.served).as("what the endpoints serve once it is current").isEqualTo(2);
    }

    @Test
    void aReadAfterAChangeWaitsForTheRebuildUnderWayAndIsServedTheChange() throws Exception {
        CompletableFuture<CatalogSnapshot> rebuild = version2BeingPrecomputed();

        CompletableFuture<Long> read = CompletableFuture.supplyAsync(() -> {
            catalog.refreshIfChanged();
            return listing.served;
        }, threads);
        try {
            read.get(200, TimeUnit.MILLISECONDS);
        } catch (TimeoutException expected) {
            // waiting for the rebuild under way, as it must
        }
        assertThat(read).as("answered before the listener had the change").isNotDone();

        listing.release.countDown();
        assertThat(read.get(10, TimeUnit.SECONDS)).isEqualTo(2);
        assertThat(rebuild.get(10, TimeUnit.SECONDS).version()).isEqualTo(2);
    }

    @Test
    void aListenerThatFailsLeavesTheSnapshotBeforeCurrent() {
        catalog.addListener(listing::rebuild);
        catalog.refreshNow();
        catalog.addListener(snapshot -> {
            if (snapshot.version() == 3) {
                throw new IllegalStateException("cannot precompute");
            }
        });
        reader.version.set(3);

        assertThat(catalog.refreshNow().version()).isEqualTo(1);
        assertThat(catalog.current().version()).isEqualTo(1);

        reader.version.set(4);
        assertThat(catalog.refreshNow().version()).as("readable again").isEqualTo(4);
        assertThat(listing.served).isEqualTo(4);
    }
}
