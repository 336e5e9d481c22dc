package io.chanledger.api.marketplace;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Bounds what one agent and one client address move of a provider's telemetry: each counts at most
 * {@code perSource} request reports per provider per {@code periodNanos} (fixed periods, all counts
 * forgotten when one ends). A report counts only when both its agent (when it names one) and its
 * address have room; one that does not is accepted and dropped. So an agent that floods a provider
 * with reports weighs as much as one that sends a few, and a thousand agent ids from one address
 * weigh as one address.
 *
 * <p>Held in memory, per instance. The agent id is kept only as a salted hash, with a salt drawn
 * at start and never written anywhere; nothing here is stored or logged. At most {@code maxKeys}
 * (source, provider) pairs are tracked per period: past that, reports of new pairs are dropped
 * until the period ends, which bounds memory under a flood of invented agent ids.
 */
final class TelemetryQuota {

    private final int perSource;
    private final long periodNanos;
    private final int maxKeys;
    private final LongSupplier nanoTime;
    private final byte[] salt = new byte[16];
    private final Map<String, Integer> counts = new HashMap<>();
    private long periodStart;

    TelemetryQuota(int perSource, long periodNanos, int maxKeys, LongSupplier nanoTime) {
        this.perSource = perSource;
        this.periodNanos = periodNanos;
        this.maxKeys = maxKeys;
        this.nanoTime = nanoTime;
        this.periodStart = nanoTime.getAsLong();
        new SecureRandom().nextBytes(salt);
    }

    /** Whether a report on {@code providerId} from this agent (null: none named) and address counts. */
    synchronized boolean admit(String agentId, String address, String providerId) {
        long now = nanoTime.getAsLong();
        if (now - periodStart >= periodNanos) {
            counts.clear();
            periodStart = now;
        }
        String byAddress = providerId + " address " + address;
        String byAgent = agentId == null ? null : providerId + " agent " + hash(agentId);
        if (!hasRoom(byAddress) || byAgent != null && !hasRoom(byAgent)) {
            return false;
        }
        int newKeys = (counts.containsKey(byAddress) ? 0 : 1) + (byAgent == null || counts.containsKey(byAgent) ? 0 : 1);
        if (counts.size() + newKeys > maxKeys) {
            return false;
        }
        counts.merge(byAddress, 1, Integer::sum);
        if (byAgent != null) {
            counts.merge(byAgent, 1, Integer::sum);
        }
        return true;
    }

    private boolean hasRoom(String key) {
        return counts.getOrDefault(key, 0) < perSource;
    }

    private String hash(String agentId) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            digest.update(salt);
            return HexFormat.of().formatHex(digest.digest(agentId.getBytes(StandardCharsets.UTF_8)), 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
