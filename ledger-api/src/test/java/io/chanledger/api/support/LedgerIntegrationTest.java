package io.chanledger.api.support;

import io.chanledger.api.LedgerApplication;
import io.chanledger.testsupport.Devnet;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.test.autoconfigure.actuate.observability.AutoConfigureObservability;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Base of every Spring integration test of the service: the whole application on a real port,
 * on a PostgreSQL database created for this test run, following the shared devnet (anvil with
 * the contracts at their canonical addresses) with the chain listener in depth mode, depth 0:
 * every mined block is final at once, and anvil mines one block per transaction. All subclasses
 * share one application context (keep it that way: no per-class properties, no @MockBean, no
 * @DirtiesContext).
 *
 * <p>The listener treats a reorganisation of blocks it has ingested as an alert and stops, so
 * tests must not revert the shared devnet (evm_revert) below its head; a test that needs to,
 * starts a node of its own.
 */
@SpringBootTest(classes = LedgerApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ActiveProfiles({"postgres", "test"})
@AutoConfigureObservability(tracing = false)
public abstract class LedgerIntegrationTest {

    public static final String DATABASE = "chan_ledger_test";
    private static final String DATABASE_URL = TestDatabases.recreate(DATABASE);
    private static final Devnet DEVNET = Devnet.shared();

    @LocalServerPort
    protected int port;

    @DynamicPropertySource
    static void applicationProperties(DynamicPropertyRegistry registry) {
        sharedProperties().forEach((name, value) -> registry.add(name, () -> value));
    }

    /** The settings every instance of the tests' service runs with: its database and the devnet. */
    static Map<String, Object> sharedProperties() {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("spring.datasource.url", DATABASE_URL);
        properties.put("spring.datasource.username", TestDatabases.USER);
        properties.put("spring.datasource.password", TestDatabases.PASSWORD);
        properties.put("chan.chain.rpc-url", DEVNET.rpcUrl());
        properties.put("chan.chain.chain-id", DEVNET.chainId());
        properties.put("chan.chain.channel-contract", DEVNET.channelAddress());
        properties.put("chan.chain.usdc", DEVNET.usdcAddress());
        properties.put("chan.listener.finality", "depth");
        properties.put("chan.listener.depth", "0");
        properties.put("chan.listener.poll-interval", "100ms");
        properties.put("chan.test.service-stub-port", ServiceStub.shared().port());
        return properties;
    }

    /** The devnet the application follows. */
    protected static Devnet devnet() {
        return DEVNET;
    }

    protected String baseUrl() {
        return "http://127.0.0.1:" + port;
    }
}
