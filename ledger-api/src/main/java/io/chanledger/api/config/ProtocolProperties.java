package io.chanledger.api.config;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Protocol settings: {@code chan.protocol.*}. The fee is in basis points of each claim's payout.
 * {@link #NAME} is the protocol's versioned identifier, the one place it is written.
 */
@ConfigurationProperties("chan.protocol")
public record ProtocolProperties(@DefaultValue("200") int feeBps) {

    /** The payment protocol's versioned identifier: {@code X-Payment-Protocol}, {@code _meta.protocol}, the guides. */
    public static final String NAME = "chan-v2";

    public ProtocolProperties {
        if (feeBps < 0 || feeBps > 10_000) {
            throw new IllegalArgumentException("chan.protocol.fee-bps must lie between 0 and 10000");
        }
    }
}
