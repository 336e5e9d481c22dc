package io.chanledger.api.support;

import io.chanledger.api.LedgerApplication;
import org.springframework.boot.test.autoconfigure.actuate.observability.AutoConfigureObservability;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Base of every Spring integration test of the service: the whole application on a real port,
 * on a PostgreSQL database created for this test run. All subclasses share one application
 * context (keep it that way: no per-class properties, no @MockBean, no @DirtiesContext).
 */
@SpringBootTest(classes = LedgerApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ActiveProfiles({"postgres", "test"})
@AutoConfigureObservability(tracing = false)
public abstract class LedgerIntegrationTest {

    public static final String DATABASE = "chan_ledger_test";
    private static final String DATABASE_URL = TestDatabases.recreate(DATABASE);

    @LocalServerPort
    protected int port;

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        registry.add("spring.datasource.url", () -> DATABASE_URL);
        registry.add("spring.datasource.username", () -> TestDatabases.USER);
        registry.add("spring.datasource.password", () -> TestDatabases.PASSWORD);
    }

    protected String baseUrl() {
        return "http://127.0.0.1:" + port;
    }
}
