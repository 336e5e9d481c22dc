package io.chanledger.api.ledger.channels.query;

import io.chanledger.domain.channel.ChannelState;
import io.chanledger.domain.contract.ContractSettings;
import io.chanledger.domain.eip712.Hex;
import io.chanledger.projections.channel.ChannelBalance;
import io.chanledger.projections.provideraccount.ProviderAccount;
import java.math.BigInteger;
import java.time.Instant;
import java.util.List;
import org.springframework.lang.Nullable;

/**
 * What a provider can claim: its account totals, and for each channel with something to claim
 * the exact arguments of the contract's {@code claim(channelId, amount, nonce, signature)}, soonest
 * expiry first.
 */
record ClaimableResponse(String provider, Totals totals, long atRiskWindowSeconds, List<Claim> claims,
                         @Nullable String nextCursor) {

    record Totals(long channels, long openChannels, long expiredChannels, BigInteger claimable, BigInteger claimed,
                  BigInteger feesPaid, BigInteger atRisk, long atRiskChannels, @Nullable Instant lastActivity) {

        static Totals of(ProviderAccount a) {
            return new Totals(a.channels(), a.openChannels(), a.expiredChannels(), a.claimable(), a.claimed(),
                    a.feesPaid(), a.atRisk(), a.atRiskChannels(), a.lastActivity());
        }

        static final Totals NONE = new Totals(0, 0, 0, BigInteger.ZERO, BigInteger.ZERO, BigInteger.ZERO,
                BigInteger.ZERO, 0, null);
    }

    /** {@code amount}, {@code nonce} and {@code signature} are the contract call's arguments. */
    record Claim(String channelId, BigInteger amount, BigInteger nonce, String signature, BigInteger claimable,
                 BigInteger netClaimable, Instant expiry, long expiryEpochSeconds, String status, boolean atRisk) {

        /** {@code netClaimable}: less the fee in force now, which the next claim pays. */
        static Claim of(ChannelBalance b, ContractSettings contract, long now, long window) {
            ChannelState c = b.state();
            return new Claim(c.channelId(), c.highestAmount(), c.highestNonce(), c.highestSignature(), c.claimable(),
                    b.netClaimable(contract), Instant.ofEpochSecond(c.expiry()), c.expiry(), c.status().code(),
                    c.atRisk(now, window));
        }
    }

    static String checksummed(String address) {
        return Hex.toChecksumAddress(address);
    }
}
