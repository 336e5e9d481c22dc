package io.chanledger.api.provider.gateway;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Clock;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.ApplicationContext;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;

/**
 * The gateway's chat endpoint over an upstream and a price list of a test's choosing, with the
 * application's own ledger, metering and error handling.
 */
final class StandaloneGateway {

    private StandaloneGateway() {
    }

    /** The chat endpoint over {@code upstream}, with the price list, ledger and metering of the test's context. */
    static MockMvc over(Upstream upstream, ApplicationContext context) {
        return over(upstream, context.getBean(PriceList.class), context);
    }

    /** {@link #over(Upstream, ApplicationContext)} selling the models of {@code prices} instead. */
    static MockMvc over(Upstream upstream, PriceList prices, ApplicationContext context) {
        return over(upstream, prices, context.getBean(Metering.class), context.getBean(GatewayMetrics.class),
                context.getBeanProvider(PaymentTerms.class), context.getBean(ObjectMapper.class),
                context.getBean(PaidAnswers.class), context.getBean(X402Offers.class));
    }

    private static MockMvc over(Upstream upstream, PriceList prices, Metering metering, GatewayMetrics metrics,
                                ObjectProvider<PaymentTerms> terms, ObjectMapper json, PaidAnswers answers,
                                X402Offers offers) {
        ChatCompletionsController controller = new ChatCompletionsController(prices, Upstreams.single(upstream, prices),
                metering, new PaidCall(new StreamRelay(metrics, json), metrics, json), terms.getObject(), json, metrics, Clock.systemUTC(),
                answers, offers);
        return MockMvcBuilders.standaloneSetup(controller).setControllerAdvice(new GatewayExceptionHandler(terms))
                .build();
    }
}
