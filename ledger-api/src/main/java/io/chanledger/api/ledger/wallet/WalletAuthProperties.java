package io.chanledger.api.ledger.wallet;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Wallet-signed requests: {@code chan.wallet-auth.*}. A signature is accepted from its timestamp
 * until {@code validity} later, or {@code maxClockSkew} before it (the signer's clock may run ahead).
 */
@ConfigurationProperties("chan.wallet-auth")
public record WalletAuthProperties(
        @DefaultValue("5m") Duration validity,
        @DefaultValue("1m") Duration maxClockSkew) {

    public WalletAuthProperties {
        if (validity.isNegative() || validity.isZero() || maxClockSkew.isNegative()) {
            throw new IllegalArgumentException("chan.wallet-auth.validity must be positive and max-clock-skew not negative");
        }
    }
}
