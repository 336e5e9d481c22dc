package io.chanledger.projections.channel;

import java.math.BigInteger;

/** What a provider claimed over all its channels (lowercase address; amounts in base units). */
public record ProviderVolume(String provider, long channels, BigInteger claimed, BigInteger feesPaid) {
}
