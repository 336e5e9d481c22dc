package io.chanledger.domain.provider;

import io.chanledger.domain.eip712.Hex;
import java.nio.charset.StandardCharsets;
import org.web3j.crypto.Hash;

/**
 * A provider's id is derived from its payment address: {@code prov-} and the first 24 hex digits
 * of keccak256("chan-provider:" ‖ lowercase address).
 *
 * <p>That makes the address unique without a separate uniqueness table: a second registration of
 * the same address targets the same aggregate, and the event store's unique
 * (aggregate_identifier, sequence_number) key refuses its first event inside the transaction that
 * would have recorded it. The check is exactly as strong as the store's own consistency, races
 * included, and needs nothing kept in step with it.
 */
public final class ProviderIds {

    private static final String PREFIX = "prov-";

    private ProviderIds() {
    }

    /** The id of the provider paid at {@code address} (any valid spelling). */
    public static String forAddress(String address) {
        String normalized = Hex.normalizeAddress(address);
        byte[] hash = Hash.sha3(("chan-provider:" + normalized).getBytes(StandardCharsets.US_ASCII));
        return PREFIX + Hex.encode(hash).substring(2, 26);
    }

    /** Whether {@code text} has the shape of a provider id (it may still name no provider). */
    public static boolean isProviderId(String text) {
        if (text == null || text.length() != PREFIX.length() + 24 || !text.startsWith(PREFIX)) {
            return false;
        }
        for (int i = PREFIX.length(); i < text.length(); i++) {
            char c = text.charAt(i);
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
                return false;
            }
        }
        return true;
    }
}
