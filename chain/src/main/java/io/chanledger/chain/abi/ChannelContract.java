package io.chanledger.chain.abi;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.web3j.crypto.Hash;

/**
 * The channel contract's interface as the ledger reads it (docs/protocol.md §A): event topics,
 * function selectors and custom errors, derived from their canonical signatures.
 */
public final class ChannelContract {

    public static final String CHANNEL_OPENED = topic("ChannelOpened(bytes32,address,address,uint256,uint256)");
    public static final String CHANNEL_CLAIMED = topic("ChannelClaimed(bytes32,address,uint256)");
    public static final String CHANNEL_CLOSED = topic("ChannelClosed(bytes32,address,uint256)");
    public static final String FEE_PAID = topic("FeePaid(bytes32,address,uint256)");
    /** The contract's settings: the fee of the claims after it, and the token it moves from then on. */
    public static final String FEE_UPDATED = topic("FeeUpdated(address,uint256)");
    public static final String USDC_UPDATED = topic("USDCUpdated(address,address)");

    /** Administrative events the ledger has no use for; skipped without being counted as unknown. */
    public static final Set<String> ADMIN_EVENTS = Set.of(
            topic("Swept(address,uint256)"),
            topic("OwnershipRenounced(address)"));

    public static final String CLOSE_SELECTOR = selector("close(bytes32)");
    public static final String COOPERATIVE_CLOSE_SELECTOR = selector("cooperativeClose(bytes32,uint256,bytes)");
    public static final String CLAIM_SELECTOR = selector("claim(bytes32,uint256,uint256,bytes)");
    public static final String GET_CHANNEL_SELECTOR = selector("getChannel(bytes32)");
    /** The EIP-712 domain separator's getter: {@code DOMAIN_SEPARATOR()} on the deployed contract, camel case on ours. */
    public static final String DOMAIN_SEPARATOR_SELECTOR = selector("DOMAIN_SEPARATOR()");
    public static final String DOMAIN_SEPARATOR_CAMEL_CASE_SELECTOR = selector("domainSeparator()");

    /** Custom error selector to name, for reading reverts. */
    public static final Map<String, String> ERRORS = errors(List.of("InvalidAmount()", "InvalidAddress()",
            "ChannelNotFound()", "InvalidSignature()", "NotProvider()", "NotConsumer()", "NotExpired()", "NotOwner()",
            "FeeTooHigh()", "TransferFailed()"));

    private ChannelContract() {
    }

    /** keccak256 of an event signature: its topic0, lowercase 0x-hex. */
    public static String topic(String eventSignature) {
        return Hash.sha3String(eventSignature).toLowerCase(Locale.ROOT);
    }

    /** The first four bytes of keccak256 of a function or error signature, 0x-hex. */
    public static String selector(String signature) {
        return Hash.sha3String(signature).substring(0, 10).toLowerCase(Locale.ROOT);
    }

    private static Map<String, String> errors(List<String> signatures) {
        Map<String, String> errors = new LinkedHashMap<>();
        signatures.forEach(signature -> errors.put(selector(signature), signature.substring(0, signature.indexOf('('))));
        return Collections.unmodifiableMap(errors);
    }
}
