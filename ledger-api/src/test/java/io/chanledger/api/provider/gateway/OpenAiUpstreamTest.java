package io.chanledger.api.provider.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The OpenAI-compatible upstream against stub APIs on loopback, among them one that stalls with
 * the connection open: every call ends at its deadline and hangs up on the upstream.
 */
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

        await("the stub to see the connection closed").atMost(Duration.ofSeconds(20)).until(stub.clientHungUp::get);
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

    /** One second for everything but the whole stream, which the stalls never reach. */
    private static final OpenAiUpstream.Deadlines SHORT = new OpenAiUpstream.Deadlines(Duration.ofSeconds(1),
            Duration.ofSeconds(1), Duration.ofSeconds(1), Duration.ofSeconds(30));
    /** Far below the stub's own stall (a minute) and the 600 s, far above a loaded machine's jitter. */
    private static final Duration SLACK = Duration.ofSeconds(3);

    private static Duration since(long started) {
        return Duration.ofNanos(System.nanoTime() - started);
    }

    private static void assertTimedOut(Throwable failure) {
        assertThat(failure).isInstanceOf(Upstream.UpstreamException.class);
        assertThat(((Upstream.UpstreamException) failure).timedOut()).as(failure.getMessage()).isTrue();
    }

    @Test
    void anAnswerWhoseBodyStallsAfterItsHeadersFailsAtItsDeadlineAndHangsUp() throws Exception {
        try (StallingUpstream stalling = new StallingUpstream()) {
            stalling.mode = StallingUpstream.Mode.HEADERS_THEN_STALL;
            OpenAiUpstream upstream = new OpenAiUpstream(stalling.baseUrl(), "", Duration.ofSeconds(2), SHORT, json);

            long started = System.nanoTime();
            Throwable failure = org.assertj.core.api.Assertions.catchThrowable(() -> upstream.complete(request(false)));

            assertTimedOut(failure);
            assertThat(failure).hasMessageContaining("1000 ms");
            assertThat(since(started)).isGreaterThanOrEqualTo(Duration.ofMillis(900)).isLessThan(SHORT.answer().plus(SLACK));
            assertThat(stalling.awaitHangUp(5)).as("the upstream connection closed").isTrue();
        }
    }

    @Test
    void anAnswerWhoseHeadersNeverComeFailsAtItsDeadlineAndHangsUp() throws Exception {
        try (StallingUpstream stalling = new StallingUpstream()) {
            stalling.mode = StallingUpstream.Mode.NO_HEADERS;
            OpenAiUpstream upstream = new OpenAiUpstream(stalling.baseUrl(), "", Duration.ofSeconds(2), SHORT, json);

            long started = System.nanoTime();
            Throwable failure = org.assertj.core.api.Assertions.catchThrowable(() -> upstream.complete(request(false)));

            assertTimedOut(failure);
            assertThat(since(started)).isLessThan(SHORT.answer().plus(SLACK));
            assertThat(stalling.awaitHangUp(5)).as("the upstream connection closed").isTrue();
        }
    }

    @Test
    void aStreamThatGoesQuietEndsAfterTheIdleLimitWithWhatItSentAndHangsUp() throws Exception {
        try (StallingUpstream stalling = new StallingUpstream()) {
            stalling.mode = StallingUpstream.Mode.CHUNKS_THEN_STALL;
            stalling.chunksBeforeStall = 3;
            OpenAiUpstream upstream = new OpenAiUpstream(stalling.baseUrl(), "", Duration.ofSeconds(2), SHORT, json);
            List<String> received = new ArrayList<>();

            long quietFrom;
            Throwable failure;
            try (Upstream.Stream stream = upstream.stream(request(true))) {
                for (int i = 0; i < 3; i++) {
                    received.add(stream.next().text());
                }
                quietFrom = System.nanoTime();
                failure = org.assertj.core.api.Assertions.catchThrowable(stream::next);
            }

            assertThat(received).containsExactly(" word0", " word1", " word2");
            assertTimedOut(failure);
            assertThat(failure).hasMessageContaining("sent nothing for 1000 ms");
            assertThat(since(quietFrom)).isGreaterThanOrEqualTo(Duration.ofMillis(900))
                    .isLessThan(SHORT.streamIdle().plus(SLACK));
            assertThat(stalling.awaitHangUp(5)).as("the upstream connection closed").isTrue();
        }
    }

    @Test
    void aStreamWhoseFirstEventNeverComesEndsAfterTheFirstByteLimit() throws Exception {
        try (StallingUpstream stalling = new StallingUpstream()) {
            stalling.mode = StallingUpstream.Mode.CHUNKS_THEN_STALL;
            stalling.chunksBeforeStall = 0;
            OpenAiUpstream upstream = new OpenAiUpstream(stalling.baseUrl(), "", Duration.ofSeconds(2), SHORT, json);

            long started = System.nanoTime();
            Throwable failure;
            try (Upstream.Stream stream = upstream.stream(request(true))) {
                failure = org.assertj.core.api.Assertions.catchThrowable(stream::next);
            }

            assertTimedOut(failure);
            assertThat(since(started)).isLessThan(SHORT.streamFirstByte().plus(SLACK));
            assertThat(stalling.awaitHangUp(5)).as("the upstream connection closed").isTrue();
        }
    }

    @Test
    void aStreamThatNeverGoesQuietStillEndsAtTheWholeStreamsLimit() throws Exception {
        stub.mode = StubUpstream.Mode.SLOW_STREAM; // a chunk every 50 ms, for 30 s
        Duration limit = Duration.ofMillis(1500);
        OpenAiUpstream upstream = new OpenAiUpstream(stub.baseUrl(), "", Duration.ofSeconds(2),
                new OpenAiUpstream.Deadlines(Duration.ofSeconds(1), Duration.ofSeconds(1), Duration.ofSeconds(1), limit),
                json);

        long started = System.nanoTime();
        int chunks = 0;
        Throwable failure = null;
        try (Upstream.Stream stream = upstream.stream(request(true))) {
            while (failure == null) {
                try {
                    stream.next();
                    chunks++;
                } catch (Upstream.UpstreamException e) {
                    failure = e;
                }
            }
        }

        assertTimedOut(failure);
        assertThat(failure).hasMessageContaining("ran past its limit of 1500 ms");
        assertThat(chunks).isPositive();
        assertThat(since(started)).isGreaterThanOrEqualTo(Duration.ofMillis(1400)).isLessThan(limit.plus(SLACK));
        await("the stub to see the connection closed").atMost(Duration.ofSeconds(10)).until(stub.clientHungUp::get);
    }

    @Test
    void timeTheReaderSpendsBetweenEventsIsNotTheUpstreamsSilence() throws Exception {
        stub.mode = StubUpstream.Mode.SLOW_STREAM;
        OpenAiUpstream upstream = new OpenAiUpstream(stub.baseUrl(), "", Duration.ofSeconds(2),
                new OpenAiUpstream.Deadlines(Duration.ofSeconds(1), Duration.ofSeconds(1), Duration.ofMillis(300),
                        Duration.ofSeconds(30)), json);

        try (Upstream.Stream stream = upstream.stream(request(true))) {
            assertThat(stream.next().text()).isEqualTo(" word0");
            // as a relay writing to a slow client: three idle limits without reading
            Thread.sleep(1_000);
            assertThat(stream.next().text()).isEqualTo(" word1");
        }
    }
}
