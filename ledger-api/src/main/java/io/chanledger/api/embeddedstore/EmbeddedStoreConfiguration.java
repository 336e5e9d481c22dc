package io.chanledger.api.embeddedstore;

import com.zaxxer.hikari.HikariDataSource;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.jdbc.DataSourceBuilder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.util.StringUtils;

/**
 * Without a database URL (the default profile), the service's database is a PostgreSQL server it
 * starts itself before its DataSource, and stops after it: the same engine as production, so what
 * the ledger acknowledges is on disk in the same way. The pool takes {@code spring.datasource.hikari.*}
 * as it would for any URL.
 */
@Configuration(proxyBeanMethods = false)
@Conditional(EmbeddedStoreConfiguration.NoDatabaseUrl.class)
public class EmbeddedStoreConfiguration {

    @Bean(destroyMethod = "close")
    EmbeddedPostgresServer embeddedPostgresServer(EmbeddedStoreProperties properties) {
        return EmbeddedPostgresServer.start(properties);
    }

    @Bean
    @ConfigurationProperties("spring.datasource.hikari")
    HikariDataSource dataSource(EmbeddedPostgresServer server) {
        return DataSourceBuilder.create().type(HikariDataSource.class).url(server.jdbcUrl())
                .username(EmbeddedPostgresServer.USER).password("").build();
    }

    static final class NoDatabaseUrl implements Condition {
        @Override
        public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
            return !StringUtils.hasText(context.getEnvironment().getProperty("spring.datasource.url"));
        }
    }
}
