package io.chanledger.api.marketplace.gasstation;

import io.chanledger.domain.eip712.Hex;
import java.time.Duration;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;

/**
 * DOWN when the faucet cannot pay the next grant (its balance is below the grant plus the most its
 * gas may cost) or its balance cannot be read; UNKNOWN when the gas station is not configured, so
 * that a service without a gas station is not reported unhealthy for it.
 */
class GasStationHealthIndicator implements HealthIndicator {

    private final GasStation station;
    private final Duration maxAge;

    GasStationHealthIndicator(GasStation station, Duration maxAge) {
        this.station = station;
        this.maxAge = maxAge;
    }

    @Override
    public Health health() {
        return switch (station) {
            case DisabledGasStation disabled -> Health.unknown().withDetail("disabled", disabled.reason()).build();
            case EnabledGasStation enabled -> health(enabled);
        };
    }

    private Health health(EnabledGasStation station) {
        FaucetHealth.Check check = station.faucetHealth().latest(maxAge);
        Health.Builder health;
        if (check.funds() == null) {
            health = Health.down().withDetail("reason", "rpc_unavailable");
        } else if (!check.funds().canPay()) {
            health = Health.down().withDetail("reason", "faucet_empty");
        } else {
            health = Health.up();
        }
        health.withDetail("faucet", Hex.toChecksumAddress(station.faucet()))
                .withDetail("grantWei", station.grantWei().toString())
                .withDetail("checkedAt", check.checkedAt().toString());
        if (check.funds() != null) {
            health.withDetail("balanceWei", check.funds().balance().toString())
                    .withDetail("requiredWei", check.funds().required().toString());
        }
        return health.build();
    }
}
