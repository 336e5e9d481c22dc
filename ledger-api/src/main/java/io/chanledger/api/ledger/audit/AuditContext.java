package io.chanledger.api.ledger.audit;

import io.chanledger.api.config.ChainProperties;
import io.chanledger.api.config.ProtocolProperties;
import io.chanledger.api.embeddedstore.EmbeddedStoreConfiguration;
import io.chanledger.api.embeddedstore.EmbeddedStoreProperties;
import io.chanledger.api.ledger.channels.command.ContractSettingsHistory;
import io.chanledger.projections.rebuild.EventTable;
import java.util.List;
import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration;
import org.springframework.boot.autoconfigure.jdbc.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.autoconfigure.transaction.TransactionAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Import;

/**
 * The little of the service an audit needs: the database (on the default profile, the embedded
 * store's server, started for the audit while the service is stopped), the chain settings and the
 * contract's starting fee. No web server, no event processors, no chain listener, no migrations: an audit
 * reads and never writes. Settings come from the same files, profiles and environment as the
 * service's.
 */
@ImportAutoConfiguration({DataSourceAutoConfiguration.class, DataSourceTransactionManagerAutoConfiguration.class,
        TransactionAutoConfiguration.class})
@EnableConfigurationProperties({ChainProperties.class, ProtocolProperties.class, EmbeddedStoreProperties.class})
@Import({EmbeddedStoreConfiguration.class, EventTable.class, EventExport.class, LedgerChannels.class,
        ContractSettingsHistory.class})
final class AuditContext {

    private AuditContext() {
    }

    /** {@code quiet}: no log output on the console (the command writes its result to standard output). */
    static ConfigurableApplicationContext start(List<String> settings, boolean quiet) {
        return new SpringApplicationBuilder(AuditContext.class)
                .web(WebApplicationType.NONE)
                .bannerMode(Banner.Mode.OFF)
                .logStartupInfo(false)
                .properties(quiet ? "logging.threshold.console=OFF" : "logging.level.root=WARN")
                .run(settings.toArray(String[]::new));
    }
}
