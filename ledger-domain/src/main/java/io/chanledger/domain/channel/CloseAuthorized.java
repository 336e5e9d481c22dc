package io.chanledger.domain.channel;

import java.math.BigInteger;

/** The provider signed a {@code CloseAuthorization} for {@code finalAmount}. */
public record CloseAuthorized(String channelId, BigInteger finalAmount, String providerSignature) {
}
