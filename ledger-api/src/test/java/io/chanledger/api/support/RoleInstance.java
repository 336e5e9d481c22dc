package io.chanledger.api.support;

import io.chanledger.api.LedgerApplication;
import io.chanledger.api.config.Role;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The service started with one role ({@code chan.role}), in this JVM, on a database of its own,
 * following the shared devnet with the tests' settings (profile {@code test}, which switches the
 * gateway on: a marketplace must ignore that). Each role's instance is started once per test run,
 * on first use, and stopped with the JVM.
 */
public final class RoleInstance {

    private static final Map<Role, ConfigurableApplicationContext> RUNNING = new EnumMap<>(Role.class);

    private RoleInstance() {
    }

    public static synchronized ConfigurableApplicationContext of(Role role) {
        return RUNNING.computeIfAbsent(role, RoleInstance::start);
    }

    public static String baseUrl(Role role) {
        return "http://127.0.0.1:" + ((WebServerApplicationContext) of(role)).getWebServer().getPort();
    }

    private static ConfigurableApplicationContext start(Role role) {
        Map<String, Object> properties = new LinkedHashMap<>(LedgerIntegrationTest.sharedProperties());
        properties.put("spring.datasource.url", TestDatabases.recreate("chan_ledger_role_" + role.settingValue()));
        properties.put("server.port", 0);
        properties.put(Role.SETTING, role.settingValue());
        // as arguments: they must override the profiles' own settings, as the test context's do
        String[] arguments = properties.entrySet().stream()
                .map(e -> "--" + e.getKey() + "=" + e.getValue()).toArray(String[]::new);
        ConfigurableApplicationContext context = new SpringApplicationBuilder(LedgerApplication.class)
                .profiles("postgres", "test")
                .run(arguments);
        Runtime.getRuntime().addShutdownHook(new Thread(context::close, "role-instance-stop-" + role.settingValue()));
        return context;
    }
}
