package io.chanledger.api.marketplace.directory;

import io.chanledger.api.http.ClientAddress;
import io.chanledger.api.http.ClientRateLimiter;
import jakarta.servlet.http.HttpServletRequest;
import java.time.Duration;
import org.springframework.stereotype.Component;

/**
 * The rate limits of what clients send the marketplace — registrations, feedback, telemetry, probe
 * alerts — each a token bucket per client address of its own (see {@link ClientRateLimiter}).
 */
@Component
class ClientLimits {

    private final ClientRateLimiter registrations;
    private final ClientRateLimiter feedback;
    private final ClientRateLimiter telemetry;
    private final ClientRateLimiter probeAlerts;
    private final String clientIpHeader;

    ClientLimits(MarketplaceProperties properties) {
        int clients = properties.maxRateLimitedClients();
        this.registrations = new ClientRateLimiter(properties.registration().capacity(),
                properties.registration().refillInterval(), clients, System::nanoTime);
        this.feedback = new ClientRateLimiter(properties.feedback().capacity(), properties.feedback().refillInterval(),
                clients, System::nanoTime);
        this.telemetry = new ClientRateLimiter(properties.telemetry().capacity(),
                properties.telemetry().refillInterval(), clients, System::nanoTime);
        this.probeAlerts = new ClientRateLimiter(properties.probeAlerts().capacity(),
                properties.probeAlerts().refillInterval(), clients, System::nanoTime);
        this.clientIpHeader = properties.clientIpHeader();
    }

    void admitRegistration(HttpServletRequest request) {
        admit(registrations, request, "registrations");
    }

    void admitFeedback(HttpServletRequest request) {
        admit(feedback, request, "feedback reports");
    }

    void admitTelemetry(HttpServletRequest request) {
        admit(telemetry, request, "telemetry posts");
    }

    void admitProbeAlert(HttpServletRequest request) {
        admit(probeAlerts, request, "probe alerts");
    }

    /** The client address the limits count by. */
    String clientOf(HttpServletRequest request) {
        return ClientAddress.of(request, clientIpHeader);
    }

    private void admit(ClientRateLimiter limiter, HttpServletRequest request, String what) {
        Duration wait = limiter.acquire(ClientAddress.of(request, clientIpHeader));
        if (!wait.isZero()) {
            throw new RateLimitedProblem(what, wait);
        }
    }
}
