package io.chanledger.api.eventstore;

import static org.assertj.core.api.Assertions.assertThat;

import io.chanledger.api.support.Channels;
import io.chanledger.api.support.LedgerIntegrationTest;
import io.chanledger.api.support.TestKeys;
import java.math.BigInteger;
import java.time.Instant;
import org.axonframework.commandhandling.gateway.CommandGateway;
import io.chanledger.projections.marketplace.ProviderDirectoryProjection;
import java.lang.reflect.Field;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Future;
import java.util.concurrent.Executors;
import java.util.concurrent.ExecutorService;
import java.util.Map;
import java.util.ArrayList;
import org.axonframework.commandhandling.SimpleCommandBus;
import org.axonframework.commandhandling.CommandBus;
import org.axonframework.eventhandling.tokenstore.TokenStore;
import org.axonframework.springboot.autoconfig.AxonTimeoutAutoConfiguration;
import io.chanledger.projections.earnings.EarningsProjection;
import io.chanledger.projections.readmodel.ReadModels;
import io.chanledger.api.ledger.readmodels.ReadModelProperties;
import org.axonframework.eventsourcing.eventstore.EmbeddedEventStore;
import javax.sql.DataSource;
import org.axonframework.common.transaction.TransactionManager;
import org.axonframework.config.EventProcessingConfiguration;
import org.junit.jupiter.api.Test;
import com.fasterxml.jackson.core.util.BufferRecycler;
import com.fasterxml.jackson.core.util.RecyclerPool;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;

/**
 * The settings that keep Axon's machinery, and work no one needs, off a voucher's path (BENCHMARKS.md,
 * "The paid request": Axon without what no one reads): each of them was found costing every command, every event or
 * every request in a profile.
 */
class CommandPathSettingsTest extends LedgerIntegrationTest {

    @Autowired
    private ApplicationContext context;

    @Autowired
    private CommandBus commandBus;

    @Autowired
    private TokenStore tokenStore;

    @Test
    void jsonBuffersReleasedOnOneRequestsThreadAreThereForTheNext(@Autowired ObjectMapper json)
            throws InterruptedException {
        RecyclerPool<BufferRecycler> pool = json.getFactory()._getRecyclerPool();
        // an HTTP handler is a virtual thread that ends with its request: per-thread buffers die with it
        Thread.ofVirtual().start(() -> {
            List<BufferRecycler> taken = List.of(pool.acquireAndLinkPooled(), pool.acquireAndLinkPooled());
            taken.forEach(BufferRecycler::releaseToPool);
        }).join();

        // a pool kept per thread answers -1: it cannot tell
        assertThat(pool.pooledCount()).isPositive();
    }

    @Test
    void jsonBuffersSharedByConcurrentRequestsNeverMixTheirBytes(@Autowired ObjectMapper json) throws Exception {
        // each handler writes and reads back an answer of its own, many at once: a buffer set handed
        // to two of them at a time would mix their bytes
        try (ExecutorService handlers = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<Boolean>> outcomes = new ArrayList<>();
            for (int handler = 0; handler < 64; handler++) {
                String content = ("answer " + handler + " ").repeat(500 + handler);
                outcomes.add(handlers.submit(() -> {
                    for (int round = 0; round < 50; round++) {
                        Map<String, Object> answer = Map.of("content", content, "round", round);
                        byte[] written = json.writeValueAsBytes(answer);
                        if (!json.readValue(written, Map.class).equals(answer)) {
                            return false;
                        }
                    }
                    return true;
                }));
            }
            for (Future<Boolean> outcome : outcomes) {
                assertThat(outcome.get()).isTrue();
            }
        }
    }

    @Test
    void theChannelCacheGuardRunsOncePerCommand() throws ReflectiveOperationException {
        assertThat(commandBus).isInstanceOf(SimpleCommandBus.class);
        Field interceptors = SimpleCommandBus.class.getDeclaredField("handlerInterceptors");
        interceptors.setAccessible(true);
        List<?> registered = (List<?>) interceptors.get(commandBus);
        assertThat(registered).filteredOn(ChannelCacheGuard.class::isInstance).hasSize(1);
    }

    @Test
    void theEventStoreKeepsAsManyEventsInMemoryAsTheReadModelsSettingSays(
            @Autowired EmbeddedEventStore eventStore, @Autowired ReadModelProperties readModels) {
        // Axon's default of 10,000 cached events filled a provider's 128 MiB heap under load
        assertThat(readModels.cachedEvents()).isLessThan(10_000);
        assertThat(eventStore).isInstanceOf(LingeringReaderEventStore.class);
        assertThat(((LingeringReaderEventStore) eventStore).cachedEvents()).isEqualTo(readModels.cachedEvents());
    }

    @Test
    void axonsHandlerTimeLimitsAreNotWrappedAroundHandlers() {
        // with no limit set they would still take a stack trace at every handler call
        assertThat(context.getBeanNamesForType(AxonTimeoutAutoConfiguration.class)).isEmpty();
    }

    @Test
    void theChannelReadModelsCommitWithoutWaitingForTheDiskAndTheLedgerDoesNot(
            @Autowired EventProcessingConfiguration processing, @Autowired TransactionManager ledgerTransactions,
            @Autowired DataSource dataSource) {
        // from a second pool whose sessions start so, not by a statement of their own
        assertThat(dataSource).isInstanceOf(DeferredCommitDataSource.class);
        TransactionManager readModels = processing.transactionManager(ReadModels.CHANNEL_PROCESSING_GROUP);
        assertThat(CommitFlushTest.settingIn(readModels, dataSource)).isEqualTo("off");
        TransactionManager earnings = processing.transactionManager(EarningsProjection.PROCESSING_GROUP);
        assertThat(CommitFlushTest.settingIn(earnings, dataSource)).isEqualTo("off");
        assertThat(CommitFlushTest.settingIn(ledgerTransactions, dataSource)).isEqualTo("on");
    }

    @Test
    void messagesCarryNoCorrelationData(@Autowired org.axonframework.config.Configuration axon,
                                        @Autowired CommandGateway commands, @Autowired DataSource dataSource) {
        // Axon's default would copy a trace and a correlation id into every message it creates
        assertThat(axon.correlationDataProviders()).isEmpty();
        String channelId = Channels.open(commands, TestKeys.wallet("correlation consumer"),
                TestKeys.wallet("correlation provider"), BigInteger.TEN, Instant.now().getEpochSecond() + 3_600);
        assertThat(new JdbcTemplate(dataSource).queryForList(
                "SELECT meta_data FROM domain_event_entry WHERE aggregate_identifier = ?", String.class, channelId))
                .containsExactly("{}");
    }

    @Test
    void storedEventsAreIdentifiedWithoutARandomDrawEach(@Autowired CommandGateway commands,
                                                         @Autowired DataSource dataSource) {
        // Axon's default draws every message's identifier from the JDK's shared SecureRandom
        String channelId = Channels.open(commands, TestKeys.wallet("identified consumer"),
                TestKeys.wallet("identified provider"), BigInteger.TEN, Instant.now().getEpochSecond() + 3_600);
        List<String> identifiers = new JdbcTemplate(dataSource).queryForList(
                "SELECT event_identifier FROM domain_event_entry WHERE aggregate_identifier = ?", String.class, channelId);
        assertThat(identifiers).isNotEmpty().allSatisfy(
                identifier -> assertThat(UUID.fromString(identifier).version()).as(identifier).isEqualTo(8));
    }

    @Test
    void theDirectoryProcessorOfANewStoreHasOneSegment() {
        assertThat(tokenStore.fetchSegments(ProviderDirectoryProjection.PROCESSING_GROUP)).containsExactly(0);
    }
}
