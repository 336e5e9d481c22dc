package io.chanledger.api.watchtower;

import io.chanledger.domain.channel.ChannelState;
import io.chanledger.domain.channel.ChannelStatus;
import io.chanledger.domain.channel.VoucherAccepted;
import java.math.BigInteger;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Which voucher to claim a channel with, and whether now. What the provider earned is what the
 * gateway charged on the channel (the highest voucher for a channel whose vouchers paid for no
 * metered request). Vouchers carry the consumer's buffer on top of what was charged, and a
 * claim can only be made with a signed voucher amount, so:
 * <ul>
 *   <li>once the earned, unclaimed amount reaches the threshold, the channel is claimed with the
 *       highest voucher not above what was earned: the consumer's buffer stays theirs, and a
 *       cooperative close at the charged total still works after the claim;</li>
 *   <li>once the expiry is within the margin (on the chain's clock), the channel is claimed with
 *       the smallest voucher covering everything earned, since after expiry the consumer may
 *       close and take back whatever is unclaimed.</li>
 *   <li>once what was earned passes a close authorization handed out on a request that did not
 *       prove it came from the consumer ({@code unprovenCloseFloor}, the lowest one the contract
 *       would still honour) by half the close exposure, the channel is claimed above it, whatever
 *       the threshold: the contract refuses a cooperative close below the claimed total, so the
 *       claim voids that authorization before the gateway's bound on what it charges above it is
 *       reached. An authorization alone, or a few requests after it, cost the provider nothing.
 *       The highest voucher not above what was earned is used when it is above the authorization;
 *       only when none is, the smallest voucher that is (what it pays above the charged total is
 *       given back to the consumer once the channel has ended, see {@link ReturnExecutor}).</li>
 * </ul>
 */
final class ClaimPlanner {

    enum Reason { THRESHOLD, EXPIRY, CLOSE_GUARD }

    record Plan(String channelId, BigInteger amount, BigInteger nonce, String signature, Reason reason) {
    }

    private final BigInteger threshold;
    private final long marginSeconds;
    private final BigInteger closeGuardTrigger;

    /**
     * @param closeExposure how far the gateway charges a channel above an unproven close
     *        authorization before it waits for a claim ({@code MeteredRequest}); the claim is
     *        planned at half of it, so that it is usually mined before the bound is reached
     */
    ClaimPlanner(BigInteger threshold, Duration margin, BigInteger closeExposure) {
        this.threshold = threshold;
        this.marginSeconds = margin.toSeconds();
        this.closeGuardTrigger = closeExposure.shiftRight(1);
    }

    /** Worth a look without reading the channel's events: its expiry is near or its vouchers reach the threshold. */
    boolean mayBeDue(long expiry, BigInteger highestAmount, BigInteger claimed, long chainTime) {
        return nearExpiry(expiry, chainTime) || highestAmount.subtract(claimed).compareTo(threshold) >= 0;
    }

    Optional<Plan> plan(ChannelState state, List<VoucherAccepted> vouchers, long chainTime) {
        return plan(state, vouchers, null, chainTime);
    }

    Optional<Plan> plan(ChannelState state, List<VoucherAccepted> vouchers, BigInteger unprovenCloseFloor,
                        long chainTime) {
        if (state.status() == ChannelStatus.CLOSED || vouchers.isEmpty()) {
            return Optional.empty();
        }
        boolean metered = vouchers.stream().anyMatch(VoucherAccepted::metered);
        BigInteger earned = metered ? state.chargedTotal() : state.highestAmount();
        BigInteger claimed = state.claimed();
        if (earned.compareTo(claimed) <= 0) {
            return Optional.empty();
        }
        if (unprovenCloseFloor != null
                && earned.subtract(unprovenCloseFloor).compareTo(closeGuardTrigger.max(BigInteger.ONE)) >= 0) {
            Optional<VoucherAccepted> within = vouchers.stream()
                    .filter(v -> v.amount().compareTo(earned) <= 0 && v.amount().compareTo(unprovenCloseFloor) > 0)
                    .max((a, b) -> a.amount().compareTo(b.amount()));
            Optional<VoucherAccepted> above = within.isPresent() ? within : vouchers.stream()
                    .filter(v -> v.amount().compareTo(unprovenCloseFloor) > 0)
                    .min((a, b) -> a.amount().compareTo(b.amount()));
            if (above.isPresent()) {
                return above.map(v -> plan(v, Reason.CLOSE_GUARD));
            }
        }
        if (nearExpiry(state.expiry(), chainTime)) {
            return vouchers.stream()
                    .filter(v -> v.amount().compareTo(earned) >= 0)
                    .min((a, b) -> a.amount().compareTo(b.amount()))
                    .map(v -> plan(v, Reason.EXPIRY));
        }
        if (earned.subtract(claimed).compareTo(threshold) < 0) {
            return Optional.empty();
        }
        return vouchers.stream()
                .filter(v -> v.amount().compareTo(earned) <= 0 && v.amount().compareTo(claimed) > 0)
                .max((a, b) -> a.amount().compareTo(b.amount()))
                .map(v -> plan(v, Reason.THRESHOLD));
    }

    boolean nearExpiry(long expiry, long chainTime) {
        return chainTime >= expiry - marginSeconds;
    }

    private static Plan plan(VoucherAccepted voucher, Reason reason) {
        return new Plan(voucher.channelId(), voucher.amount(), voucher.nonce(), voucher.signature(), reason);
    }
}
