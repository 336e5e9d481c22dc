package io.chanledger.api.gateway;

import io.chanledger.api.ledger.VoucherAdmission;
import io.chanledger.api.ledger.VoucherFields;
import io.chanledger.domain.channel.MeteredRequest;
import io.chanledger.domain.channel.RequestSettlement;
import io.chanledger.domain.channel.VoucherReceipt;
import java.math.BigInteger;
import java.time.Clock;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;

/**
 * A paid request's two steps in the ledger. Before the upstream call the voucher goes through
 * the ledger's own admission with the request's estimated cost as its hold; afterwards the
 * request is settled with its actual cost (zero when it failed), which the Channel aggregate
 * charges at most up to what the vouched amount leaves.
 */
@Component
@ConditionalOnGateway
class Metering {

    private static final Logger log = LoggerFactory.getLogger(Metering.class);
    private static final int SETTLE_ATTEMPTS = 3;

    private final VoucherAdmission admission;
    private final Clock clock;
    private final Duration holdTtl;
    private final String provider;

    Metering(VoucherAdmission admission, Clock clock, GatewayProperties properties, ProviderIdentity identity) {
        this.admission = admission;
        this.clock = clock;
        this.holdTtl = properties.holdTtl();
        this.provider = identity.address();
    }

    VoucherReceipt admit(VoucherFields voucher, BigInteger estimate) {
        long holdUntil = clock.instant().plus(holdTtl).getEpochSecond();
        return admission.admit(voucher.channelId(), voucher.amount(), voucher.nonce(), voucher.signature(),
                new MeteredRequest(estimate, holdUntil, provider));
    }

    /**
     * Records the request's cost. Retried a few times, since the request was served already; if
     * the ledger stays unreachable the hold lapses after its time and the cost is lost, which is
     * logged with the figures needed to bill it by hand.
     */
    RequestSettlement settle(VoucherReceipt receipt, BigInteger cost) {
        RuntimeException last = null;
        for (int attempt = 1; attempt <= SETTLE_ATTEMPTS; attempt++) {
            try {
                return admission.settle(receipt.channelId(), receipt.nonce(), cost);
            } catch (RuntimeException e) {
                last = e;
                pause(attempt);
            }
        }
        log.error("could not settle the request of voucher {} on channel {} at cost {}", receipt.nonce(),
                receipt.channelId(), cost, last);
        throw new GatewayProblem(HttpStatus.SERVICE_UNAVAILABLE, "settlement_unavailable",
                "the ledger could not record this request's cost; retry later");
    }

    private static void pause(int attempt) {
        try {
            Thread.sleep(50L * attempt);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
