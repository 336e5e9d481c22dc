package io.chanledger.api.config;

import java.util.Set;
import java.util.TreeSet;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;

/** The tables each role's migrations create ({@link RoleMigrations}), and those a database holds. */
final class RoleSchemas {

    /** Axon's stores, wallet-signed requests, the chain listener's state, the channel read models. */
    static final Set<String> SHARED = Set.of("domain_event_entry", "snapshot_event_entry", "token_entry",
            "wallet_auth_signature", "chain_listener_checkpoint", "chain_channel_expiry", "channel_balance",
            "provider_account");
    static final Set<String> MARKETPLACE = Set.of("marketplace_provider", "marketplace_provider_model",
            "marketplace_provider_history", "marketplace_provider_health", "marketplace_provider_contact",
            "marketplace_registration_nonce", "marketplace_read_version", "marketplace_skill_version",
            "marketplace_feedback", "marketplace_provider_latency", "marketplace_telemetry",
            "marketplace_provider_profile", "gas_grant");
    static final Set<String> PROVIDER = Set.of("gateway_claim", "gateway_close_watch", "gateway_excess_return",
            "gateway_answer", "gateway_instance", "earnings_request", "earnings_claim", "x402_payment",
            "x402_wallet_nonce");

    private RoleSchemas() {
    }

    /** The tables {@code role}'s migrations leave in a fresh database (Flyway's own history aside). */
    static Set<String> tablesOf(Role role) {
        Set<String> tables = new TreeSet<>(SHARED);
        if (role.runs(Role.MARKETPLACE)) {
            tables.addAll(MARKETPLACE);
        }
        if (role.runs(Role.PROVIDER)) {
            tables.addAll(PROVIDER);
        }
        return tables;
    }

    /** The tables of {@code dataSource}'s public schema, Flyway's history left out. */
    static Set<String> tablesIn(DataSource dataSource) {
        return new TreeSet<>(new JdbcTemplate(dataSource).queryForList("""
                SELECT table_name FROM information_schema.tables
                WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> 'flyway_schema_history'
                """, String.class));
    }
}
