package io.chanledger.api.web;

import io.micrometer.observation.ObservationPredicate;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.server.observation.ServerRequestObservationContext;

/**
 * Leaves the two endpoints on the payment path, {@code POST /api/channels/{id}/vouchers} and
 * {@code POST /v1/chat/completions}, out of Spring's {@code http.server.requests} observation,
 * which builds its tags and looks its timer up for every request (about 6% of a voucher's CPU time,
 * BENCHMARKS.md, "The paid request's profile"). Their figures are the ledger's own, on meters built
 * once: {@code chan.voucher.admission} (time), {@code chan.vouchers.accepted} and
 * {@code chan.vouchers.rejected}, {@code chan.gateway.requests}.
 */
@Configuration(proxyBeanMethods = false)
class PaymentPathObservation {

    @Bean
    ObservationPredicate paymentPathNotObservedPerRequest() {
        return (name, context) -> !(context instanceof ServerRequestObservationContext server
                && onPaymentPath(server.getCarrier()));
    }

    static boolean onPaymentPath(HttpServletRequest request) {
        if (!"POST".equals(request.getMethod())) {
            return false;
        }
        String path = request.getRequestURI();
        return "/v1/chat/completions".equals(path) || path.startsWith("/api/channels/") && path.endsWith("/vouchers");
    }
}
