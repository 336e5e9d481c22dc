package io.chanledger.api.ledger.readmodels;

import io.chanledger.domain.chain.ChainRef;
import io.chanledger.domain.channel.ChannelClaimed;
import io.chanledger.domain.channel.ChannelClosed;
import io.chanledger.domain.channel.ChannelExpired;
import io.chanledger.domain.channel.ChannelOpenConfirmed;
import io.chanledger.domain.channel.ChannelOpened;
import io.chanledger.domain.channel.CloseAuthorized;
import io.chanledger.domain.channel.CloseKind;
import io.chanledger.domain.channel.VoucherAccepted;
import io.chanledger.domain.eip712.Hex;
import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import org.axonframework.common.transaction.TransactionManager;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventhandling.GenericDomainEventMessage;
import org.axonframework.eventsourcing.eventstore.EventStore;
import org.axonframework.messaging.unitofwork.DefaultUnitOfWork;
import org.axonframework.messaging.unitofwork.UnitOfWork;

/**
 * Channel histories of every shape the ledger records — plain and provisional openings, runs of
 * vouchers, partial and full claims, close authorizations, expiry, closes after expiry and
 * cooperative ones — written straight into the event store in large batches, one unit of work
 * per batch. Signatures are random bytes: read models do not verify them.
 */
public final class MixedHistories {

    private static final BigInteger FEE_BPS = BigInteger.valueOf(200);
    private static final BigInteger BPS = BigInteger.valueOf(10_000);
    private static final String ZERO_HASH = "0x" + "00".repeat(32);

    private final Random random;
    private final String consumer;
    private final String provider;
    private long block = 1;

    public MixedHistories(long seed, String consumer, String provider) {
        this.random = new Random(seed);
        this.consumer = consumer;
        this.provider = provider;
    }

    public String channelId() {
        byte[] id = new byte[32];
        random.nextBytes(id);
        return Hex.encode(id);
    }

    /** One channel's events, oldest first. */
    public List<Object> history(String channelId, long now) {
        List<Object> events = new ArrayList<>();
        BigInteger deposit = BigInteger.valueOf(1_000_000L * (1 + random.nextInt(100)));
        long expiry = now + random.nextInt(4 * 3_600) - 3_600;
        boolean provisional = random.nextInt(10) == 0;
        events.add(new ChannelOpened(channelId, consumer, provider, deposit, expiry, provisional ? null : ref(), provisional,
                BigInteger.ZERO));
        if (provisional) {
            events.add(new ChannelOpenConfirmed(channelId, consumer, provider, deposit, expiry, ref()));
        }
        BigInteger highest = BigInteger.ZERO;
        BigInteger claimed = BigInteger.ZERO;
        int steps = random.nextInt(14);
        for (int nonce = 1; nonce <= steps; nonce++) {
            if (random.nextInt(5) == 0 && highest.compareTo(claimed) > 0) {
                BigInteger total = random.nextBoolean() ? highest
                        : claimed.add(BigInteger.ONE).add(BigInteger.valueOf(random.nextInt(highest.subtract(claimed).intValue())));
                BigInteger payout = total.subtract(claimed);
                events.add(new ChannelClaimed(channelId, provider, payout, payout.multiply(FEE_BPS).divide(BPS), total,
                        ref()));
                claimed = total;
            } else {
                BigInteger amount = highest.add(BigInteger.valueOf(1 + random.nextInt(50_000))).min(deposit);
                if (amount.compareTo(highest) > 0) {
                    events.add(new VoucherAccepted(channelId, amount, BigInteger.valueOf(nonce), signature(),
                            amount.subtract(highest), now));
                    highest = amount;
                }
            }
        }
        switch (random.nextInt(6)) {
            case 0 -> events.add(new ChannelExpired(channelId, expiry, expiry + 1, block));
            case 1 -> {
                events.add(new ChannelExpired(channelId, expiry, expiry + 1, block));
                events.add(new ChannelClosed(channelId, deposit.subtract(claimed), CloseKind.AFTER_EXPIRY, ref()));
            }
            case 2 -> {
                events.add(new CloseAuthorized(channelId, highest, signature()));
                if (highest.compareTo(claimed) > 0) {
                    BigInteger payout = highest.subtract(claimed);
                    events.add(new ChannelClaimed(channelId, provider, payout, payout.multiply(FEE_BPS).divide(BPS),
                            highest, ref()));
                    claimed = highest;
                }
                events.add(new ChannelClosed(channelId, deposit.subtract(claimed), CloseKind.COOPERATIVE, ref()));
            }
            default -> {
                // still open
            }
        }
        return events;
    }

    public static DomainEventMessage<?> message(String channelId, long sequence, Object payload, Instant at) {
        return new GenericDomainEventMessage<>("ChannelAggregate", channelId, sequence, payload, Map.of(),
                UUID.randomUUID().toString(), at);
    }

    /** Appends the messages in one transaction and unit of work, as one batched insert. */
    public static void append(EventStore eventStore, TransactionManager transactions,
                              List<? extends DomainEventMessage<?>> messages) {
        UnitOfWork<?> unitOfWork = DefaultUnitOfWork.startAndGet(null);
        unitOfWork.attachTransaction(transactions);
        eventStore.publish(messages);
        unitOfWork.commit();
    }

    private ChainRef ref() {
        block++;
        byte[] hash = new byte[32];
        random.nextBytes(hash);
        return new ChainRef(block, ZERO_HASH, Hex.encode(hash), random.nextInt(4));
    }

    private String signature() {
        byte[] signature = new byte[65];
        random.nextBytes(signature);
        signature[64] = (byte) (27 + random.nextInt(2));
        return Hex.encode(signature);
    }
}
