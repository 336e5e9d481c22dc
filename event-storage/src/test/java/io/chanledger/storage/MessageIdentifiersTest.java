package io.chanledger.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import org.axonframework.common.IdentifierFactory;
import org.axonframework.eventhandling.GenericEventMessage;
import org.junit.jupiter.api.Test;

class MessageIdentifiersTest {

    @Test
    void axonFindsThemThroughItsServiceLoader() {
        assertThat(IdentifierFactory.getInstance()).isInstanceOf(MessageIdentifiers.class);
        String identifier = new GenericEventMessage<>("payload").getIdentifier();
        assertThat(UUID.fromString(identifier).version()).isEqualTo(8);
    }

    @Test
    void areUuidsOfVersionEightAndTheRfcVariantThatReadBackAsWritten() {
        MessageIdentifiers identifiers = new MessageIdentifiers(-1L, -1L);
        for (int i = 0; i < 4; i++) {
            String text = identifiers.generateIdentifier();
            UUID uuid = UUID.fromString(text);
            assertThat(uuid.version()).as(text).isEqualTo(8);
            assertThat(uuid.variant()).as(text).isEqualTo(2);
            assertThat(uuid.toString()).isEqualTo(text);
        }
    }

    @Test
    void neverRepeatInOneProcessAcrossThreads() throws InterruptedException {
        MessageIdentifiers identifiers = new MessageIdentifiers();
        Set<String> seen = ConcurrentHashMap.newKeySet();
        int threads = 4;
        int each = 250_000;
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            workers.add(Thread.ofPlatform().start(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                for (int i = 0; i < each; i++) {
                    seen.add(identifiers.generateIdentifier());
                }
            }));
        }
        start.countDown();
        for (Thread worker : workers) {
            worker.join();
        }
        assertThat(seen).hasSize(threads * each);
    }

    @Test
    void theCounterComesRoundInsideItsOwnBitsAndKeepsTheLayout() {
        // started just before the 62-bit counter's end: it wraps to zero without touching the variant
        MessageIdentifiers identifiers = new MessageIdentifiers(0L, (1L << 62) - 2);
        Set<String> seen = new HashSet<>();
        List<Long> counters = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            UUID uuid = UUID.fromString(identifiers.generateIdentifier());
            assertThat(uuid.variant()).isEqualTo(2);
            assertThat(uuid.version()).isEqualTo(8);
            seen.add(uuid.toString());
            counters.add(uuid.getLeastSignificantBits() & 0x3FFF_FFFF_FFFF_FFFFL);
        }
        assertThat(seen).hasSize(4);
        assertThat(counters).containsExactly((1L << 62) - 2, (1L << 62) - 1, 0L, 1L);
    }

    @Test
    void twoProcessesDrawTheirOwnBits() {
        Set<Long> processBits = new HashSet<>();
        for (int i = 0; i < 100; i++) {
            processBits.add(UUID.fromString(new MessageIdentifiers().generateIdentifier()).getMostSignificantBits());
        }
        assertThat(processBits).hasSize(100);
    }
}
