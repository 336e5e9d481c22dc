package io.chanledger.api.support;

import io.chanledger.api.LedgerApplication;
import java.util.HashMap;
import java.util.Map;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A second instance of the service, in this JVM, on the same PostgreSQL database as the shared
 * test context: what an operator runs behind a round-robin balancer. It runs neither the chain
 * listener nor the watchtower, as docs/operations.md says of every instance but one. Started once per test
 * run, on first use, and stopped with the JVM.
 */
public final class SecondInstance {

    private static ConfigurableApplicationContext context;

    private SecondInstance() {
    }

    /** The running second instance (started on first use). */
    public static synchronized ConfigurableApplicationContext context() {
        if (context == null) {
            Map<String, Object> properties = new HashMap<>(LedgerIntegrationTest.sharedProperties());
            properties.put("server.port", 0);
            properties.put("chan.listener.enabled", false);
            properties.put("chan.gateway.watchtower.enabled", false);
            // snapshots every few events: this instance's, taken from its channels in memory, are
            // what the other instance reads a channel back from after a conflict
            properties.put("chan.ledger.snapshots.channel", 5);
            // as arguments: they must override the profiles' own settings, as the test context's do
            String[] arguments = properties.entrySet().stream()
                    .map(e -> "--" + e.getKey() + "=" + e.getValue()).toArray(String[]::new);
            SpringApplication application = new SpringApplicationBuilder(LedgerApplication.class)
                    .profiles("postgres", "test")
                    .build();
            context = application.run(arguments);
            ConfigurableApplicationContext started = context;
            Runtime.getRuntime().addShutdownHook(new Thread(started::close, "second-instance-stop"));
        }
        return context;
    }

    public static String baseUrl() {
        return "http://127.0.0.1:" + ((WebServerApplicationContext) context()).getWebServer().getPort();
    }
}
