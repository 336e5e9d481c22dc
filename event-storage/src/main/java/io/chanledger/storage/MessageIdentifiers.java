package io.chanledger.storage;

import java.security.SecureRandom;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.axonframework.common.IdentifierFactory;

/**
 * The identifiers Axon gives every message it creates (each event, command, command result and
 * event handler's result), registered for Axon's {@link IdentifierFactory} through
 * {@code META-INF/services}. Axon's default draws a random UUID from the JDK's shared
 * {@link SecureRandom} for each: a read of the system's random source under one lock, several
 * times per paid request, on the handlers, the commit workers and the read models' processors
 * alike (BENCHMARKS.md, "The paid request": cheap identifiers and times).
 *
 * <p>An identifier here is a UUID of version 8 (RFC 9562's custom layout): 60 bits drawn from
 * {@link SecureRandom} once per process, then a 62-bit counter that starts at a random value and
 * counts up. Identifiers of one process never repeat (the counter would need 2^62 messages to come
 * round). Two processes give the same identifier only if they drew the same 60 bits and their
 * counters' stretches overlap, odds far below a random UUID's chance of being wrong for any other
 * reason. The event store keeps event identifiers unique all the same: a repeat would fail its
 * commit, never overwrite an event. The identifiers are no secret: none is shown outside the
 * store, and nothing is granted on knowing one.
 */
public final class MessageIdentifiers extends IdentifierFactory {

    private static final long VERSION_BITS = 0xF000L;
    private static final long VERSION_8 = 0x8000L;
    private static final long COUNTER_BITS = 0x3FFF_FFFF_FFFF_FFFFL;
    private static final long VARIANT_RFC = 0x8000_0000_0000_0000L;

    private final long processBits;
    private final AtomicLong counter;

    /** What {@link java.util.ServiceLoader} builds: this process's bits drawn from {@link SecureRandom}. */
    public MessageIdentifiers() {
        this(new SecureRandom());
    }

    MessageIdentifiers(SecureRandom random) {
        this(random.nextLong(), random.nextLong());
    }

    MessageIdentifiers(long processRandom, long counterStart) {
        this.processBits = processRandom & ~VERSION_BITS | VERSION_8;
        this.counter = new AtomicLong(counterStart);
    }

    @Override
    public String generateIdentifier() {
        return new UUID(processBits, counter.getAndIncrement() & COUNTER_BITS | VARIANT_RFC).toString();
    }
}
