package io.chanledger.api.eventstore;

import io.chanledger.api.config.LedgerProperties;
import io.chanledger.projections.rebuild.EventTable;
import org.axonframework.commandhandling.CommandBus;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.commandhandling.gateway.DefaultCommandGateway;
import org.axonframework.common.jdbc.PersistenceExceptionResolver;
import com.zaxxer.hikari.HikariDataSource;
import javax.sql.DataSource;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * What lets several instances share one event store: conflicts recognised as such, cached
 * channels checked against the store before a command is decided on them, and commands that
 * lost a race retried on fresh state. See docs/operations.md, "Running several instances".
 */
@Configuration(proxyBeanMethods = false)
public class SharedStoreConfiguration {

    @Bean
    PersistenceExceptionResolver persistenceExceptionResolver() {
        return new StorageConflicts();
    }

    @Bean
    BoundedAggregateCache channelCache() {
        return new BoundedAggregateCache(LedgerProperties.AGGREGATE_CACHE_SIZE);
    }

    /** Axon's auto-configuration puts every command handler interceptor bean on the command bus. */
    @Bean
    ChannelCacheGuard channelCacheGuard(BoundedAggregateCache channelCache, EventTable events) {
        return new ChannelCacheGuard(channelCache, events);
    }

    /**
     * On PostgreSQL, the service's pool gets a second one beside it, for the transactions that
     * commit without waiting for the disk ({@link DeferredCommitDataSource}). As large as the first
     * at most; it opens connections only as such transactions run at once (the group-commit
     * workers and the read models' processor threads).
     */
    @Bean
    static BeanPostProcessor deferredCommitPool() {
        return new BeanPostProcessor() {
            @Override
            public Object postProcessAfterInitialization(Object bean, String beanName) {
                if ("dataSource".equals(beanName) && DeferredCommitDataSource.suits(bean)) {
                    HikariDataSource pool = (HikariDataSource) bean;
                    return new DeferredCommitDataSource(pool, pool.getMaximumPoolSize());
                }
                return bean;
            }
        };
    }

    @Bean
    CommitFlush commitFlush(DataSource dataSource) {
        return new CommitFlush(dataSource);
    }

    @Bean(destroyMethod = "shutdown")
    ConflictRetryScheduler conflictRetryScheduler() {
        return new ConflictRetryScheduler();
    }

    @Bean
    CommandGateway commandGateway(CommandBus commandBus, ConflictRetryScheduler conflictRetryScheduler) {
        return DefaultCommandGateway.builder().commandBus(commandBus).retryScheduler(conflictRetryScheduler).build();
    }
}
