package io.chanledger.api.marketplace.directory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import io.chanledger.api.config.ChainProperties;
import io.chanledger.api.support.TestKeys;
import io.chanledger.domain.eip712.DigestSigner;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

class ProviderProbeTest {

    private static final DigestSigner WALLET = TestKeys.wallet("probe-provider");
    private static final Duration TIMEOUT = Duration.ofMillis(800);

    private final ProviderProbe probe = new ProviderProbe(properties(), new ChainProperties(137,
            "0x5FbDB2315678afecb367f032d93F642f64180aa3", "0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359", null, null, null),
            new ObjectMapper());
    private StubProvider stub;
    private HttpServer raw;

    private static MarketplaceProperties properties() {
        Map<String, String> settings = Map.of("chan.marketplace.allow-private-addresses", "true",
                "chan.marketplace.registration.max-response-bytes", "65536");
        return new Binder(new MapConfigurationPropertySource(settings))
                .bindOrCreate("chan.marketplace", Bindable.of(MarketplaceProperties.class));
    }

    private ProviderTarget target(String url) {
        return probe.target(URI.create(url));
    }

    @BeforeEach
    void start() {
        stub = new StubProvider(WALLET.address()).price("small", "0.0001", "0.0002");
    }

    @AfterEach
    void stop() {
        stub.close();
        if (raw != null) {
            raw.stop(0);
        }
    }

    private URI rawServer(int status, String location, byte[] body) throws Exception {
        raw = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        raw.createContext("/", exchange -> {
            if (location != null) {
                exchange.getResponseHeaders().set("Location", location);
            }
            exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        raw.start();
        return URI.create("http://127.0.0.1:" + raw.getAddress().getPort());
    }

    @Test
    void aHealthCheckReadsTheModelsAndTheirPrices() throws Exception {
        ProviderProbe.Answer answer = probe.pricing(target(stub.url()), WALLET.address(), TIMEOUT);

        assertThat(answer.models()).singleElement().satisfies(m -> {
            assertThat(m.id()).isEqualTo("small");
            assertThat(m.inputPer1kTokens()).isEqualTo(100);
            assertThat(m.outputPer1kTokens()).isEqualTo(200);
        });
        assertThat(answer.latencyMs()).isNotNegative();
    }

    @Test
    void aProviderWithoutDocsFailsTheCheckDocsMissing() {
        stub.docs(null);

        assertThatThrownBy(() -> probe.inference(target(stub.url()), WALLET.address(), "small", TIMEOUT))
                .isInstanceOfSatisfying(ProbeFailure.class, f -> {
                    assertThat(f.check()).isEqualTo("docs_missing");
                    assertThat(f.getMessage()).startsWith("docs_missing: /v1/docs answered HTTP 404");
                });
        assertThatThrownBy(() -> probe.connectionTest(URI.create(stub.url()), WALLET.address(), TIMEOUT))
                .isInstanceOfSatisfying(ProbeFailure.class, f -> assertThat(f.check()).isEqualTo("docs_missing"));
    }

    @Test
    void docsShorterThan100CharactersWithoutSurroundingSpaceFailTheCheckDocsMissing() throws Exception {
        stub.docs("\n  " + "é".repeat(99) + "  \n");

        assertThatThrownBy(() -> probe.inference(target(stub.url()), WALLET.address(), "small", TIMEOUT))
                .isInstanceOfSatisfying(ProbeFailure.class, f -> {
                    assertThat(f.check()).isEqualTo("docs_missing");
                    assertThat(f.getMessage()).contains("99 characters");
                });

        stub.docs("é".repeat(100));
        probe.inference(target(stub.url()), WALLET.address(), "small", TIMEOUT);
    }

    @Test
    void theChatProbeAsksForPaymentWithoutAVoucherAndPassesOnA402WithThePaymentTerms() throws Exception {
        probe.inference(target(stub.url()), WALLET.address(), "small", TIMEOUT);

        assertThat(stub.chatCalls()).isEqualTo(1);
        assertThat(stub.chatCallsWithVoucher()).isZero();
    }

    @Test
    void aChatEndpointThatDoesNotAskForPaymentAsTheProtocolSaysFailsTheCheckChatProbe() {
        Map<StubProvider.ChatAnswer, String> expected = Map.of(
                StubProvider.ChatAnswer.SERVED_UNPAID, "without a voucher answered HTTP 200",
                StubProvider.ChatAnswer.BROKEN, "without a voucher answered HTTP 500",
                StubProvider.ChatAnswer.PAYMENT_REQUIRED_WITHOUT_TERMS, "X-Payment-Protocol missing");
        expected.forEach((answer, message) -> {
            stub.chat(answer);
            assertThatThrownBy(() -> probe.inference(target(stub.url()), WALLET.address(), "small", TIMEOUT))
                    .as("%s", answer).isInstanceOfSatisfying(ProbeFailure.class, f -> {
                        assertThat(f.check()).isEqualTo("chat_probe");
                        assertThat(f.getMessage()).startsWith("chat_probe: /v1/chat/completions").contains(message);
                    });
        });
        assertThat(stub.chatCallsWithVoucher()).isZero();
    }

    @Test
    void aChatEndpointThatNamesAnotherAddressFailsTheCheckChatProbe() {
        stub.namesAddress(TestKeys.wallet("probe-someone-else").address());

        assertThatThrownBy(() -> probe.inference(target(stub.url()), WALLET.address(), "small", TIMEOUT))
                .isInstanceOfSatisfying(ProbeFailure.class, f -> assertThat(f.getMessage())
                        .contains("X-Payment-Provider").contains("not the provider's address"));
    }

    @Test
    void theConnectionTestAnswersAFailedChatProbeWithoutFailing() throws Exception {
        stub.chat(StubProvider.ChatAnswer.BROKEN);

        ProviderProbe.ConnectionTest test = probe.connectionTest(URI.create(stub.url()), WALLET.address(), TIMEOUT);

        assertThat(test.answer().models()).hasSize(1);
        assertThat(test.chatProbeFailure()).startsWith("chat_probe:").contains("HTTP 500");
    }

    @Test
    void otherFailuresNameNoListingRule() {
        stub.down(true);

        assertThatThrownBy(() -> probe.pricing(target(stub.url()), WALLET.address(), TIMEOUT))
                .isInstanceOfSatisfying(ProbeFailure.class, f -> assertThat(f.check()).isNull());
    }

    @Test
    void aProviderThatAnswersTooLateFails() {
        stub.delay(3_000);

        assertThatThrownBy(() -> probe.connectionTest(URI.create(stub.url()), WALLET.address(), TIMEOUT))
                .isInstanceOf(ProbeFailure.class).hasMessageContaining("in time");
    }

    @Test
    void nothingListeningFails() {
        String url = stub.url();
        stub.close();

        assertThatThrownBy(() -> probe.pricing(target(url), WALLET.address(), TIMEOUT))
                .isInstanceOfSatisfying(ProbeFailure.class, f -> {
                    assertThat(f.getMessage()).isEqualTo("unreachable");
                    assertThat(f.detail()).contains("/v1/models");
                });
    }

    @Test
    void redirectsAreNotFollowed() throws Exception {
        URI url = rawServer(302, stub.url() + "/v1/pricing", new byte[0]);

        assertThatThrownBy(() -> probe.connectionTest(url, WALLET.address(), TIMEOUT))
                .isInstanceOf(ProbeFailure.class).hasMessage("/v1/pricing answered HTTP 302");
    }

    @Test
    void aResponseAboveTheLimitIsNotRead() throws Exception {
        URI url = rawServer(200, null, new byte[200_000]);

        assertThatThrownBy(() -> probe.connectionTest(url, WALLET.address(), TIMEOUT))
                .isInstanceOf(ProbeFailure.class).hasMessageContaining("larger than 65536 bytes");
    }

    @Test
    void aModelListThatIsNotAListFails() throws Exception {
        URI url = rawServer(200, null, "{\"object\":\"list\"}".getBytes());

        assertThatThrownBy(() -> probe.pricing(probe.target(url), WALLET.address(), TIMEOUT))
                .isInstanceOf(ProbeFailure.class).hasMessage("/v1/models did not answer with a model list");
    }

    @Test
    void anInternalAddressIsRefusedByDefaultAsUnreachable() {
        ProviderProbe strict = new ProviderProbe(new Binder(new MapConfigurationPropertySource(Map.of()))
                .bindOrCreate("chan.marketplace", Bindable.of(MarketplaceProperties.class)),
                new ChainProperties(137, "0x5FbDB2315678afecb367f032d93F642f64180aa3",
                        "0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359", null, null, null), new ObjectMapper());

        assertThatThrownBy(() -> strict.connectionTest(URI.create(stub.url()), WALLET.address(), TIMEOUT))
                .isInstanceOfSatisfying(ProbeFailure.class, f -> {
                    assertThat(f.getMessage()).isEqualTo("unreachable");
                    assertThat(f.detail()).contains("127.0.0.1").contains("Loopback");
                });
        assertThatThrownBy(() -> strict.pricing(strict.target(URI.create(stub.url())), WALLET.address(), TIMEOUT))
                .isInstanceOf(ProbeFailure.class).hasMessage("unreachable");
        assertThat(stub.requests()).isZero();
    }
}
