package io.chanledger.api.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.chanledger.api.support.Channels;
import io.chanledger.api.support.Http;
import io.chanledger.api.support.LedgerIntegrationTest;
import io.chanledger.api.support.TestKeys;
import io.chanledger.domain.eip712.DigestSigner;
import io.micrometer.core.instrument.MeterRegistry;
import java.math.BigInteger;
import java.time.Instant;
import org.axonframework.commandhandling.gateway.CommandGateway;
import io.chanledger.projections.marketplace.ProviderDirectoryProjection;
import java.lang.reflect.Field;
import java.util.List;
import org.axonframework.commandhandling.SimpleCommandBus;
import org.axonframework.commandhandling.CommandBus;
import org.axonframework.eventhandling.tokenstore.TokenStore;
import org.axonframework.springboot.autoconfig.AxonTimeoutAutoConfiguration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;

/**
 * The settings that keep Axon's machinery off a voucher's path (BENCHMARKS.md, "The paid request's
 * profile"): each of them was found costing every command or every event in a profile.
 */
class CommandPathSettingsTest extends LedgerIntegrationTest {

    @Autowired
    private ApplicationContext context;

    @Autowired
    private CommandBus commandBus;

    @Autowired
    private TokenStore tokenStore;

    @Autowired
    private CommandGateway commands;

    @Autowired
    private MeterRegistry meters;

    private static final DigestSigner CONSUMER = TestKeys.wallet("consumer-1");
    private static final DigestSigner PROVIDER = TestKeys.wallet("provider-1");

    @Test
    void theChannelCacheGuardRunsOncePerCommand() throws ReflectiveOperationException {
        assertThat(commandBus).isInstanceOf(SimpleCommandBus.class);
        Field interceptors = SimpleCommandBus.class.getDeclaredField("handlerInterceptors");
        interceptors.setAccessible(true);
        List<?> registered = (List<?>) interceptors.get(commandBus);
        assertThat(registered).filteredOn(ChannelCacheGuard.class::isInstance).hasSize(1);
    }

    @Test
    void axonsHandlerTimeLimitsAreNotWrappedAroundHandlers() {
        // with no limit set they would still take a stack trace at every handler call
        assertThat(context.getBeanNamesForType(AxonTimeoutAutoConfiguration.class)).isEmpty();
    }

    @Test
    void vouchersAreCountedOnTheLedgersOwnMetersNotObservedPerRequest() {
        String channelId = Channels.open(commands, CONSUMER, PROVIDER, BigInteger.valueOf(1_000_000),
                Instant.now().getEpochSecond() + 86_400);
        double accepted = meters.counter("chan.vouchers.accepted", "duplicate", "false").count();

        Http.Reply reply = Http.postJson(baseUrl() + "/api/channels/" + channelId + "/vouchers",
                Channels.voucherJson(CONSUMER, channelId, 1_000, 1));
        Http.get(baseUrl() + "/api/agent");

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        assertThat(meters.counter("chan.vouchers.accepted", "duplicate", "false").count()).isEqualTo(accepted + 1);
        assertThat(meters.find("chan.voucher.admission").timer()).isNotNull();
        assertThat(meters.find("http.server.requests").tag("uri", "/api/channels/{channelId}/vouchers").timers())
                .isEmpty();
        // every other endpoint still is
        assertThat(meters.find("http.server.requests").tag("uri", "/api/agent").timers()).isNotEmpty();
    }

    @Test
    void theDirectoryProcessorOfANewStoreHasOneSegment() {
        assertThat(tokenStore.fetchSegments(ProviderDirectoryProjection.PROCESSING_GROUP)).containsExactly(0);
    }
}
