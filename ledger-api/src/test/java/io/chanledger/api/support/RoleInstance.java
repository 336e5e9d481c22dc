package io.chanledger.api.support;

import io.chanledger.api.LedgerApplication;
import io.chanledger.api.config.Role;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The service started with one role ({@code chan.role}), in this JVM, on a fresh database of its
 * own, following the shared devnet with the tests' settings (profile {@code test}, which switches
 * the gateway on: a marketplace must ignore that). A few connections only, since the suite's other
 * contexts share the server's; the caller stops it when its test class is done.
 */
public final class RoleInstance {

    private RoleInstance() {
    }

    /** {@code role} on a fresh database named {@code database}, with {@code settings} over the tests' own. */
    public static ConfigurableApplicationContext start(Role role, String database, Map<String, Object> settings) {
        Map<String, Object> properties = new LinkedHashMap<>(LedgerIntegrationTest.sharedProperties());
        properties.put("spring.datasource.url", TestDatabases.recreate(database));
        properties.put("spring.datasource.hikari.maximum-pool-size", 4);
        properties.put("server.port", 0);
        properties.put(Role.SETTING, role.settingValue());
        properties.putAll(settings);
        // as arguments: they must override the profiles' own settings, as the test context's do
        String[] arguments = properties.entrySet().stream()
                .map(e -> "--" + e.getKey() + "=" + e.getValue()).toArray(String[]::new);
        return new SpringApplicationBuilder(LedgerApplication.class)
                .profiles("postgres", "test")
                .run(arguments);
    }

    public static String baseUrl(ConfigurableApplicationContext context) {
        return "http://127.0.0.1:" + ((WebServerApplicationContext) context).getWebServer().getPort();
    }
}
