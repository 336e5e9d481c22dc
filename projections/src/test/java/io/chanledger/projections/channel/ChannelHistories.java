package io.chanledger.projections.channel;

import io.chanledger.domain.chain.ChainRef;
import io.chanledger.domain.channel.ChannelClaimed;
import io.chanledger.domain.channel.ChannelClosed;
import io.chanledger.domain.channel.ChannelExpired;
import io.chanledger.domain.channel.ChannelOpenConfirmed;
import io.chanledger.domain.channel.ChannelOpened;
import io.chanledger.domain.channel.CloseAuthorized;
import io.chanledger.domain.channel.CloseKind;
import io.chanledger.domain.channel.HoldRaised;
import io.chanledger.domain.channel.RequestSettled;
import io.chanledger.domain.channel.VoucherAccepted;
import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.GenericDomainEventMessage;

/** Channel events for handler tests: fixed ones by name, and random but valid histories. */
public final class ChannelHistories {

    public static final String CONSUMER = "0x" + "c0".repeat(20);
    public static final String PROVIDER = "0x" + "b0".repeat(20);
    public static final String OTHER_PROVIDER = "0x" + "b1".repeat(20);
    public static final BigInteger DEPOSIT = BigInteger.valueOf(10_000_000);

    private ChannelHistories() {
    }

    public static String channelId(int n) {
        return "0x" + String.format("%064x", n);
    }

    public static ChainRef ref(long block) {
        return new ChainRef(block, "0x" + "00".repeat(32), "0x" + String.format("%064x", block), 0);
    }

    public static ChannelOpened opened(String channelId, String provider, long expiry) {
        return new ChannelOpened(channelId, CONSUMER, provider, DEPOSIT, expiry, ref(1), false, BigInteger.ZERO);
    }

    public static VoucherAccepted voucher(String channelId, long amount, long nonce, long previous) {
        return new VoucherAccepted(channelId, BigInteger.valueOf(amount), BigInteger.valueOf(nonce),
                signature(channelId, nonce), BigInteger.valueOf(amount - previous), 1_700_000_000L + nonce);
    }

    public static ChannelClaimed claim(String channelId, String provider, long payout, long totalClaimed) {
        BigInteger gross = BigInteger.valueOf(payout);
        return new ChannelClaimed(channelId, provider, gross, gross.multiply(BigInteger.valueOf(200))
                .divide(BigInteger.valueOf(10_000)), BigInteger.valueOf(totalClaimed), ref(totalClaimed));
    }

    public static ChannelExpired expired(String channelId, long expiry) {
        return new ChannelExpired(channelId, expiry, expiry + 1, 99);
    }

    public static ChannelClosed closed(String channelId, long refund) {
        return new ChannelClosed(channelId, BigInteger.valueOf(refund), CloseKind.AFTER_EXPIRY, ref(1_000));
    }

    public static String signature(String channelId, long nonce) {
        byte[] bytes = new byte[65];
        new Random(channelId.hashCode() * 31L + nonce).nextBytes(bytes);
        bytes[64] = 27;
        return "0x" + HexFormat.of().formatHex(bytes);
    }

    /**
     * A valid random history: opened (sometimes provisionally, then confirmed), vouchers, claims
     * within the vouchers, sometimes a close authorization, expiry and a close.
     */
    public static List<Object> random(String channelId, Random random) {
        List<Object> events = new ArrayList<>();
        long expiry = 1_700_000_000L + random.nextInt(100_000);
        boolean provisional = random.nextInt(5) == 0;
        events.add(new ChannelOpened(channelId, CONSUMER, provisional ? OTHER_PROVIDER : PROVIDER, DEPOSIT, expiry,
                provisional ? null : ref(1), provisional, BigInteger.ZERO));
        if (provisional) {
            events.add(new ChannelOpenConfirmed(channelId, CONSUMER, PROVIDER, DEPOSIT, expiry, ref(2)));
        }
        long highest = 0;
        long claimed = 0;
        long charged = 0;
        int steps = random.nextInt(12);
        for (int i = 1; i <= steps; i++) {
            if (random.nextInt(4) == 0 && highest > claimed) {
                long total = claimed + 1 + random.nextInt((int) (highest - claimed));
                events.add(claim(channelId, PROVIDER, total - claimed, total));
                claimed = total;
            } else if (highest < DEPOSIT.longValue() - 1_000) {
                long amount = highest + 1 + random.nextInt(1_000);
                if (random.nextInt(3) == 0) {
                    charged = meteredRequest(channelId, amount, i, highest, charged, random, events);
                } else {
                    events.add(voucher(channelId, amount, i, highest));
                }
                highest = amount;
            }
        }
        if (random.nextInt(4) == 0) {
            events.add(new CloseAuthorized(channelId, BigInteger.valueOf(highest), signature(channelId, 0)));
        }
        if (random.nextBoolean()) {
            events.add(expired(channelId, expiry));
            if (random.nextBoolean()) {
                events.add(closed(channelId, DEPOSIT.longValue() - claimed));
            }
        }
        return events;
    }

    /**
     * A metered voucher whose request holds part of it for a while (sometimes only until the next
     * voucher), sometimes raises its hold, and is sometimes settled; the charged total after it.
     */
    private static long meteredRequest(String channelId, long amount, long nonce, long previous, long charged,
                                       Random random, List<Object> events) {
        long acceptedAt = 1_700_000_000L + nonce;
        long hold = 1 + random.nextInt((int) (amount - Math.min(charged, amount - 1)));
        events.add(new VoucherAccepted(channelId, BigInteger.valueOf(amount), BigInteger.valueOf(nonce),
                signature(channelId, nonce), BigInteger.valueOf(amount - previous), acceptedAt,
                BigInteger.valueOf(hold), acceptedAt + random.nextInt(3), BigInteger.valueOf(charged)));
        if (random.nextBoolean()) {
            hold += random.nextInt(100);
            events.add(new HoldRaised(channelId, BigInteger.valueOf(nonce), BigInteger.valueOf(hold), acceptedAt));
        }
        if (random.nextBoolean()) {
            long cost = random.nextInt((int) hold + 1);
            events.add(new RequestSettled(channelId, BigInteger.valueOf(nonce), BigInteger.valueOf(cost),
                    BigInteger.valueOf(cost), BigInteger.valueOf(charged + cost), acceptedAt + 1));
            return charged + cost;
        }
        return charged;
    }

    /** The histories' events as one stream of domain event messages, channels interleaved at random. */
    public static void interleave(Map<String, List<Object>> histories, Random random, List<EventMessage<?>> stream,
                                  Instant t0) {
        Map<String, Integer> next = new HashMap<>();
        List<String> pending = new ArrayList<>(histories.keySet());
        while (!pending.isEmpty()) {
            String id = pending.get(random.nextInt(pending.size()));
            int sequence = next.merge(id, 1, Integer::sum) - 1;
            stream.add(new GenericDomainEventMessage<>("ChannelAggregate", id, sequence, histories.get(id).get(sequence),
                    Map.of(), UUID.randomUUID().toString(), t0.plusSeconds(sequence)));
            if (sequence == histories.get(id).size() - 1) {
                pending.remove(id);
            }
        }
    }
}
