package io.chanledger.projections.channel;

import java.math.BigInteger;

/**
 * Every channel's on-chain figures summed: channels by status, USDC the contract holds for the
 * channels not closed yet, claimed and fees paid over all. Amounts in base units.
 */
public record NetworkTotals(long channels, long openChannels, long expiredChannels, BigInteger locked,
                            BigInteger claimed, BigInteger feesPaid) {
}
