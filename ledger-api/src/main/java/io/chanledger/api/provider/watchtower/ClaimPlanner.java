package io.chanledger.api.provider.watchtower;

import io.chanledger.domain.channel.ChannelState;
import io.chanledger.domain.channel.ChannelStatus;
import io.chanledger.domain.channel.VoucherAccepted;
import java.math.BigInteger;
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
 *   <li>once the expiry is within the channel's margin ({@link ExpiryMargin}, on the chain's
 *       clock), the channel is claimed with the smallest voucher covering everything earned,
 *       since after expiry the consumer may close and take back whatever is unclaimed.</li>
 *   <li>once what was earned passes a close authorization handed out on a request that did not
 *       prove it came from the consumer ({@code unprovenCloseFloor}, the lowest one the contract
 *       would still honour), the channel is claimed above it at once, whatever the threshold: the
 *       contract refuses a cooperative close below the claimed total, so the claim voids that
 *       authorization, and until it is recorded the gateway serves the channel no more requests.
 *       An authorization alone costs the provider nothing. The highest voucher not above what was
 *       earned is used when it is above the authorization (as much of what was earned as one
 *       transaction can take, and nothing to give back); only when none is, the smallest voucher
 *       that is (what it pays above the charged total is given back to the consumer once the
 *       channel has ended, see {@link ReturnExecutor}).</li>
 * </ul>
 */
final class ClaimPlanner {

    enum Reason { THRESHOLD, EXPIRY, CLOSE_GUARD }

    record Plan(String channelId, BigInteger amount, BigInteger nonce, String signature, Reason reason) {
    }

    private final BigInteger threshold;
    private final ExpiryMargin margin;

    ClaimPlanner(BigInteger threshold, ExpiryMargin margin) {
        this.threshold = threshold;
        this.margin = margin;
    }

    /**
     * Worth a look without reading the channel's events: its expiry is within the longest margin
     * of any channel, or its vouchers reach the threshold.
     */
    boolean mayBeDue(long expiry, BigInteger highestAmount, BigInteger claimed, long chainTime) {
        return chainTime >= expiry - margin.longest() || highestAmount.subtract(claimed).compareTo(threshold) >= 0;
    }

    /**
     * @param openedAt the chain time of the channel's open block, or null when not known yet
     */
    Optional<Plan> plan(ChannelState state, List<VoucherAccepted> vouchers, BigInteger unprovenCloseFloor,
                        Long openedAt, long chainTime) {
        if (state.status() == ChannelStatus.CLOSED || vouchers.isEmpty()) {
            return Optional.empty();
        }
        boolean metered = vouchers.stream().anyMatch(VoucherAccepted::metered);
        BigInteger earned = metered ? state.chargedTotal() : state.highestAmount();
        BigInteger claimed = state.claimed();
        if (earned.compareTo(claimed) <= 0) {
            return Optional.empty();
        }
        if (unprovenCloseFloor != null && earned.compareTo(unprovenCloseFloor) > 0) {
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
        if (nearExpiry(state.expiry(), openedAt, chainTime)) {
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

    boolean nearExpiry(long expiry, Long openedAt, long chainTime) {
        return chainTime >= expiry - margin.seconds(expiry, openedAt);
    }

    private static Plan plan(VoucherAccepted voucher, Reason reason) {
        return new Plan(voucher.channelId(), voucher.amount(), voucher.nonce(), voucher.signature(), reason);
    }
}
