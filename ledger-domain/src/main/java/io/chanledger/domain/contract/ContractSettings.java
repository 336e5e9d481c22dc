package io.chanledger.domain.contract;

import io.chanledger.domain.chain.ChainRef;
import io.chanledger.domain.eip712.Hex;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The fee and the token of a channel contract as its logs set them, folded from the contract's
 * {@link FeeUpdated} and {@link UsdcUpdated} events over the values it had before the first of
 * them (the configured ones). This is the one definition of "the fee in force": at a claim, the
 * fee of the last {@code FeeUpdated} logged before the claim's log; for a claim not made yet, the
 * fee of the last one recorded. Immutable.
 */
public final class ContractSettings {

    /** The events this fold reads; all others pass through {@link #with} unchanged. */
    public static final Set<Class<?>> EVENT_TYPES = Set.of(FeeUpdated.class, UsdcUpdated.class);

    private static final BigInteger BPS_DENOMINATOR = BigInteger.valueOf(10_000);

    private final BigInteger startingFeeBps;
    private final String startingUsdc;
    private final List<FeeUpdated> feeUpdates;
    private final List<UsdcUpdated> usdcUpdates;

    private ContractSettings(BigInteger startingFeeBps, String startingUsdc, List<FeeUpdated> feeUpdates,
                             List<UsdcUpdated> usdcUpdates) {
        this.startingFeeBps = startingFeeBps;
        this.startingUsdc = startingUsdc;
        this.feeUpdates = feeUpdates;
        this.usdcUpdates = usdcUpdates;
    }

    /** The aggregate id of the contract at {@code contract} on chain {@code chainId}: {@code 137:0x…}. */
    public static String idOf(long chainId, String contract) {
        return chainId + ":" + Hex.normalizeAddress(contract);
    }

    /**
     * The settings before any recorded change. {@code usdc} may be null when no token is
     * configured; it is kept lowercase.
     */
    public static ContractSettings starting(BigInteger feeBps, String usdc) {
        Objects.requireNonNull(feeBps, "feeBps");
        return new ContractSettings(feeBps, usdc == null ? null : Hex.normalizeAddress(usdc), List.of(), List.of());
    }

    public static ContractSettings replay(BigInteger startingFeeBps, String startingUsdc, Iterable<?> events) {
        ContractSettings settings = starting(startingFeeBps, startingUsdc);
        for (Object event : events) {
            settings = settings.with(event);
        }
        return settings;
    }

    /**
     * These settings with one more event. A change logged at or before the last change of its
     * kind adds nothing: the aggregate records each log once and in chain order, so such an
     * event can only come from a second copy of the stream.
     */
    public ContractSettings with(Object event) {
        return switch (event) {
            case FeeUpdated fee when feeUpdates.isEmpty() || fee.chainRef().isAfter(feeUpdates.getLast().chainRef()) ->
                    new ContractSettings(startingFeeBps, startingUsdc, appended(feeUpdates, fee), usdcUpdates);
            case UsdcUpdated usdc when usdcUpdates.isEmpty()
                    || usdc.chainRef().isAfter(usdcUpdates.getLast().chainRef()) ->
                    new ContractSettings(startingFeeBps, startingUsdc, feeUpdates, appended(usdcUpdates, usdc));
            default -> this;
        };
    }

    /** The fee in force at the log {@code at}: that of the last fee change logged before it. */
    public BigInteger feeBpsAt(ChainRef at) {
        for (int i = feeUpdates.size() - 1; i >= 0; i--) {
            if (at.isAfter(feeUpdates.get(i).chainRef())) {
                return feeUpdates.get(i).feeBps();
            }
        }
        return startingFeeBps;
    }

    /** The fee in force after the last recorded change: what a claim made now pays. */
    public BigInteger feeBps() {
        return feeUpdates.isEmpty() ? startingFeeBps : feeUpdates.getLast().feeBps();
    }

    /**
     * Where the fee in force goes, lowercase, as the last recorded fee change set it; null before
     * the ledger recorded one (the configured starting values name no recipient).
     */
    public String feeRecipient() {
        return feeUpdates.isEmpty() ? null : feeUpdates.getLast().feeRecipient();
    }

    /** The token in force after the last recorded change, lowercase; null when none is known. */
    public String usdc() {
        return usdcUpdates.isEmpty() ? startingUsdc : usdcUpdates.getLast().usdc();
    }

    public List<FeeUpdated> feeUpdates() {
        return feeUpdates;
    }

    public List<UsdcUpdated> usdcUpdates() {
        return usdcUpdates;
    }

    /** The contract's fee on a payout: payout × feeBps / 10000, rounded down, as {@code claim} computes it. */
    public static BigInteger feeOn(BigInteger payout, BigInteger feeBps) {
        return payout.multiply(feeBps).divide(BPS_DENOMINATOR);
    }

    /** What the provider receives of a payout claimed now: the payout less the fee in force. */
    public BigInteger netOf(BigInteger payout) {
        return payout.subtract(feeOn(payout, feeBps()));
    }

    private static <T> List<T> appended(List<T> list, T element) {
        List<T> copy = new ArrayList<>(list);
        copy.add(element);
        return List.copyOf(copy);
    }
}
