package io.chanledger.api.provider.dashboard;

import static io.swagger.v3.oas.annotations.media.Schema.RequiredMode.REQUIRED;

import io.chanledger.api.ledger.chain.ListenerReport;
import io.chanledger.domain.eip712.Hex;
import io.chanledger.projections.earnings.EarningsTable;
import io.swagger.v3.oas.annotations.media.Schema;
import java.math.BigInteger;
import java.time.Instant;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.lang.Nullable;

/**
 * What the provider's dashboard shows: its earnings, its claims, its channels at risk, its
 * revenue per model, and whether the ledger behind them follows the chain. Amounts are base units as decimal strings, addresses EIP-55.
 */
record ProviderDashboard(
        @Schema(requiredMode = REQUIRED, description = "the provider's address") String provider,
        @Schema(requiredMode = REQUIRED, description = "the time the figures were read at") Instant asOf,
        @Schema(requiredMode = REQUIRED, description = "a channel expiring within this many seconds is at risk")
        long atRiskWindowSeconds,
        @Schema(requiredMode = REQUIRED) Earnings earnings,
        @Schema(requiredMode = REQUIRED, description = "days (UTC) with a charge or a claim in the last "
                + ProviderDashboardController.DAYS + ", oldest first") List<Day> days,
        @Schema(requiredMode = REQUIRED, description = "the latest " + ProviderDashboardController.CLAIMS
                + " claims on-chain, newest first") List<Claim> claims,
        @Schema(requiredMode = REQUIRED, description = "at most " + ProviderDashboardController.AT_RISK
                + " channels at risk, most urgent first") List<AtRisk> atRisk,
        @Schema(requiredMode = REQUIRED, description = "revenue per model or service, on channels and by x402 payments, "
                + "most earned first")
        List<ModelRevenue> models,
        @Schema(description = "the chain listener's state, as its health says it: whether these figures see the "
                + "chain's present; absent when this instance does not run the listener") @Nullable
        ListenerReport listener) {

    @Schema(name = "DashboardEarnings")
    record Earnings(
            @Schema(requiredMode = REQUIRED, description = "channels to the provider, in any status") long channels,
            @Schema(requiredMode = REQUIRED) long openChannels,
            @Schema(requiredMode = REQUIRED, description = "what the gateway charged for the requests it served")
            BigInteger charged,
            @Schema(requiredMode = REQUIRED, description = "paid out by claims on-chain, fees included") BigInteger claimed,
            @Schema(requiredMode = REQUIRED, description = "the protocol's fees on those claims") BigInteger fees,
            @Schema(requiredMode = REQUIRED, description = "what claims could still take with the highest vouchers "
                    + "(highest voucher − claimed, channels not closed)") BigInteger claimable,
            @Schema(requiredMode = REQUIRED, description = "charged − claimed over the channels not closed: earned, "
                    + "not claimed yet") BigInteger unclaimedCharged,
            @Schema(requiredMode = REQUIRED, description = "given back to consumers of what claims paid above the "
                    + "charged total") BigInteger returned) {

        static Earnings of(EarningsTable.Totals t) {
            return new Earnings(t.channels(), t.openChannels(), t.charged(), t.claimed(), t.fees(), t.claimable(),
                    t.unclaimedCharged(), t.returned());
        }
    }

    @Schema(name = "DashboardDay")
    record Day(
            @Schema(requiredMode = REQUIRED, description = "the UTC day, yyyy-mm-dd") String day,
            @Schema(requiredMode = REQUIRED, description = "charged by the requests settled that day") BigInteger charged,
            @Schema(requiredMode = REQUIRED, description = "requests charged that day") long requests,
            @Schema(requiredMode = REQUIRED, description = "paid out by claims recorded that day") BigInteger claimed,
            @Schema(requiredMode = REQUIRED, description = "fees of those claims") BigInteger fees) {

        static Day of(EarningsTable.Day d) {
            return new Day(d.day().toString(), d.charged(), d.requests(), d.claimed(), d.fees());
        }
    }

    @Schema(name = "DashboardClaim")
    record Claim(
            @Schema(requiredMode = REQUIRED) String channelId,
            @Schema(requiredMode = REQUIRED, description = "the claim's gross increment") BigInteger payout,
            @Schema(requiredMode = REQUIRED, description = "the part of the payout that went to the protocol")
            BigInteger fee,
            @Schema(requiredMode = REQUIRED, description = "the channel's claimed total after this claim")
            BigInteger totalClaimed,
            @Schema(requiredMode = REQUIRED) String txHash,
            @Schema(requiredMode = REQUIRED) long blockNumber,
            @Schema(requiredMode = REQUIRED, description = "when the ledger recorded the claim") Instant at) {

        static Claim of(EarningsTable.Claim c) {
            return new Claim(c.channelId(), c.payout(), c.fee(), c.totalClaimed(), c.txHash(), c.blockNumber(), c.at());
        }
    }

    @Schema(name = "DashboardChannelAtRisk")
    record AtRisk(
            @Schema(requiredMode = REQUIRED) String channelId,
            @Schema(requiredMode = REQUIRED) String consumer,
            @Schema(requiredMode = REQUIRED, allowableValues = {"open", "expired"}) String status,
            @Schema(requiredMode = REQUIRED, description = "a close authorization is out: the consumer may close "
                    + "cooperatively at any time") boolean closing,
            @Schema(requiredMode = REQUIRED) Instant expiry,
            @Schema(requiredMode = REQUIRED) long expiryEpochSeconds,
            @Schema(requiredMode = REQUIRED, description = "seconds until the expiry, 0 once past") long secondsLeft,
            @Schema(requiredMode = REQUIRED, description = "charged − claimed: what a close before a claim loses")
            BigInteger atStake,
            @Schema(requiredMode = REQUIRED, description = "what a claim with the highest voucher takes now")
            BigInteger claimable) {

        static AtRisk of(EarningsTable.AtRisk r, long now) {
            return new AtRisk(r.channelId(), Hex.toChecksumAddress(r.consumer()), r.status(), r.closing(),
                    Instant.ofEpochSecond(r.expiry()), r.expiry(), Math.max(0, r.expiry() - now), r.atStake(),
                    r.claimable());
        }
    }

    @Schema(name = "DashboardModelRevenue")
    record ModelRevenue(
            @Schema(requiredMode = REQUIRED, description = "the gateway's model or service id") String model,
            @Schema(requiredMode = REQUIRED, description = "charged on channels by its requests") BigInteger charged,
            @Schema(requiredMode = REQUIRED, description = "its requests that were charged on channels") long requests,
            @Schema(requiredMode = REQUIRED, description = "settled on chain by its x402 payments") BigInteger x402Settled,
            @Schema(requiredMode = REQUIRED, description = "its x402 payments settled") long x402Payments) {

        /**
         * The channel revenue and the x402 revenue of each model, most earned first: a model with
         * only one of them shows zero for the other.
         */
        static List<ModelRevenue> of(List<EarningsTable.ModelRevenue> channels, Map<String, X402Revenue.Settled> x402) {
            Map<String, ModelRevenue> models = new LinkedHashMap<>();
            for (EarningsTable.ModelRevenue m : channels) {
                X402Revenue.Settled paid = x402.getOrDefault(m.model(), new X402Revenue.Settled(BigInteger.ZERO, 0));
                models.put(m.model(), new ModelRevenue(m.model(), m.charged(), m.requests(), paid.amount(),
                        paid.payments()));
            }
            x402.forEach((model, paid) -> models.putIfAbsent(model, new ModelRevenue(model, BigInteger.ZERO, 0,
                    paid.amount(), paid.payments())));
            return models.values().stream()
                    .sorted(Comparator.comparing((ModelRevenue m) -> m.charged().add(m.x402Settled())).reversed())
                    .toList();
        }
    }
}
