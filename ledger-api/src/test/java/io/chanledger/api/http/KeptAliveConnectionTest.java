package io.chanledger.api.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.chanledger.api.support.ClosedLoopLoad;
import io.chanledger.api.support.LedgerIntegrationTest;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An agent pays request after request over one kept-alive connection, and the service does not
 * close it after a count of requests (Tomcat's own default closes it after 100). A closed one
 * costs the agent a new connection, and the service a new connection's buffers, which live for
 * that count of requests: long enough, under load, to be copied by the collector again and again.
 */
class KeptAliveConnectionTest extends LedgerIntegrationTest {

    @Test
    void aClientsConnectionServesRequestAfterRequestWithoutBeingClosed() throws InterruptedException {
        List<ClosedLoopLoad.Request> mine = new ArrayList<>();
        for (int n = 0; n < 250; n++) {
            mine.add(ClosedLoopLoad.get("http://127.0.0.1:" + port + "/api/chan/signing"));
        }

        ClosedLoopLoad.Result result = ClosedLoopLoad.run(List.of(mine));

        assertThat(result.errors()).isZero();
        assertThat(result.requests()).isEqualTo(250);
        assertThat(result.connections()).isEqualTo(1);
    }
}
