package io.chanledger.api.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The OpenAI-compatible upstream against a stub API on loopback. */
class OpenAiUpstreamTest {

    private final ObjectMapper json = new ObjectMapper();
    private final StubUpstream stub = new StubUpstream();
    private final OpenAiUpstream upstream = new OpenAiUpstream(stub.baseUrl(), "", Duration.ofSeconds(2),
            Duration.ofSeconds(10), json);

    @AfterEach
    void stop() {
        stub.close();
    }

    private ChatRequest request(boolean stream) {
        return ChatRequest.parse(Agent.chatBody("m", "hello", 10, stream).getBytes(StandardCharsets.UTF_8), json);
    }

    @Test
    void closingAStreamHalfWayHangsUpOnTheUpstream() throws Exception {
        stub.mode = StubUpstream.Mode.SLOW_STREAM;
        Upstream.Stream stream = upstream.stream(request(true));
        for (int i = 0; i < 3; i++) {
            assertThat(stream.next().text()).isEqualTo(" word" + i);
        }

        stream.close();

        Await.until(Duration.ofSeconds(20), "the stub to see the connection closed", stub.clientHungUp::get);
        assertThat(stub.chunksWritten.get()).isLessThan(600);
    }

    @Test
    void aStreamGoesUpAsTheClientSentIt() throws Exception {
        stub.mode = StubUpstream.Mode.SLOW_STREAM;
        try (Upstream.Stream stream = upstream.stream(request(true))) {
            stream.next();
        }
        assertThat(stub.lastBody).isEqualTo(Agent.chatBody("m", "hello", 10, true));
    }

    @Test
    void noApiKeyMeansNoAuthorizationHeader() throws Exception {
        upstream.complete(request(false));
        assertThat(stub.lastAuthorization).isNull();
    }

    @Test
    void aFailingUpstreamIsReportedWithoutItsAnswer() throws Exception {
        stub.mode = StubUpstream.Mode.FAIL;
        assertThatThrownBy(() -> upstream.complete(request(false)))
                .isInstanceOf(Upstream.UpstreamException.class)
                .hasMessageContaining("HTTP 500")
                .hasMessageNotContaining("internal details");
    }

    @Test
    void anUnreachableUpstreamIsAnUpstreamFailure() throws Exception {
        OpenAiUpstream nowhere = new OpenAiUpstream("http://127.0.0.1:1/v1", "k", Duration.ofSeconds(1),
                Duration.ofSeconds(2), json);
        assertThatThrownBy(() -> nowhere.complete(request(false))).isInstanceOf(Upstream.UpstreamException.class);
    }
}
