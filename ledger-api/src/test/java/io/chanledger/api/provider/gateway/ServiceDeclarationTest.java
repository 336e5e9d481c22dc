package io.chanledger.api.provider.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.chanledger.api.support.ServiceStub;
import io.chanledger.domain.provider.PriceKind;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.PropertySourcesPlaceholdersResolver;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.core.io.FileSystemResource;

/**
 * Service models and HTTP upstreams as configured: bound the way Spring binds the YAML, and
 * checked at start-up, where a broken declaration stops the start with a message naming it.
 */
class ServiceDeclarationTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SCHEMA = "{\"type\":\"object\",\"required\":[\"minutes\",\"country\"],"
            + "\"properties\":{\"minutes\":{\"type\":\"integer\"},\"country\":{\"type\":\"string\"}}}";

    /** A gateway selling one per-unit service of an http upstream, with {@code overrides} applied. */
    private static Map<String, String> settings(Map<String, String> overrides) {
        Map<String, String> settings = new HashMap<>(Map.of(
                "chan.gateway.models[0].id", "lease",
                "chan.gateway.models[0].upstream", "vpn",
                "chan.gateway.models[0].pricing", "per-unit",
                "chan.gateway.models[0].unit-parameter", "minutes",
                "chan.gateway.models[0].price-per-unit", "0.001",
                "chan.gateway.models[0].max-units", "60",
                "chan.gateway.models[0].parameters", SCHEMA,
                "chan.gateway.models[0].example", "{\"minutes\":10,\"country\":\"US\"}",
                "chan.gateway.upstreams[0].name", "vpn",
                "chan.gateway.upstreams[0].url", "http://127.0.0.1:9/lease/{country}"));
        settings.putAll(overrides);
        settings.values().removeIf(String::isEmpty);
        return settings;
    }

    private static GatewayProperties bind(Map<String, String> settings) {
        return new Binder(new MapConfigurationPropertySource(settings))
                .bindOrCreate("chan.gateway", Bindable.of(GatewayProperties.class));
    }

    private static Upstreams start(Map<String, String> overrides) {
        GatewayProperties properties = bind(settings(overrides));
        return Upstreams.of(properties, PriceList.of(properties, 0, JSON), JSON, Clock.systemUTC());
    }

    @Test
    void aValidDeclarationPricesByItsUnitsAndPublishesItsHighestPrice() throws Exception {
        GatewayProperties properties = bind(settings(Map.of()));
        PriceList prices = PriceList.of(properties, 0, JSON);
        Upstreams upstreams = Upstreams.of(properties, prices, JSON, Clock.systemUTC());
        PriceList.ModelRate lease = prices.model("lease").orElseThrow();

        assertThat(upstreams.service(lease)).isNotNull();
        assertThat(upstreams.chat(lease)).isNull();
        assertThat(lease.units().minUnits()).isEqualTo(1);
        assertThat(lease.inputPer1k()).isEqualTo(BigInteger.valueOf(60_000));
        assertThat(lease.outputPer1k()).isZero();
        assertThat(lease.serviceCost(JSON.readTree("{\"minutes\":7,\"country\":\"US\"}"))).isEqualTo(BigInteger.valueOf(7_000));
        assertThat(lease.unitsProblem(JSON.readTree("{\"minutes\":61,\"country\":\"US\"}"))).contains("1 to 60");
        assertThat(lease.unitsProblem(JSON.readTree("{\"minutes\":60,\"country\":\"US\"}"))).isNull();
        assertThat(lease.service().violations(JSON.readTree("{\"minutes\":\"ten\"}"))).hasSize(2);
        assertThat(lease.service().answerViolations(JSON.readTree("{}"))).as("no answer schema declared").isEmpty();
    }

    @Test
    void aDeclaredAnswerSchemaIsWhatAnAnswerMustMatch() throws Exception {
        PriceList.ModelRate lease = PriceList.of(bind(settings(Map.of("chan.gateway.models[0].answer-schema",
                "{\"type\":\"object\",\"required\":[\"endpoint\"],\"properties\":{\"endpoint\":{\"type\":\"string\"}}}"))),
                0, JSON).model("lease").orElseThrow();

        assertThat(lease.service().answerViolations(JSON.readTree("{\"endpoint\":\"vpn.example:51820\"}"))).isEmpty();
        assertThat(lease.service().answerViolations(JSON.readTree("{\"endpoint\":7}"))).singleElement()
                .asString().contains("$.endpoint");
        assertThat(lease.service().answerViolations(JSON.readTree("[]"))).isNotEmpty();
    }

    @Test
    void brokenDeclarationsStopTheStartNamingTheModel() {
        assertThatThrownBy(() -> start(Map.of("chan.gateway.models[0].parameters", "{\"type\": \"object\",")))
                .hasMessageContaining("chan.gateway.models[lease].parameters is not valid JSON");
        assertThatThrownBy(() -> start(Map.of("chan.gateway.models[0].parameters",
                "{\"type\":\"object\",\"properties\":{\"minutes\":{\"type\":\"integer\",\"minimum\":\"one\"}}}")))
                .hasMessageContaining("chan.gateway.models[lease].parameters is not a valid JSON Schema");
        assertThatThrownBy(() -> start(Map.of("chan.gateway.models[0].parameters", "{\"type\":\"string\"}")))
                .hasMessageContaining("chan.gateway.models[lease].parameters must be a JSON Schema of an object");
        assertThatThrownBy(() -> start(Map.of("chan.gateway.models[0].example", "{\"minutes\":\"ten\",\"country\":\"US\"}")))
                .hasMessageContaining("chan.gateway.models[lease].example does not match its parameters");
        assertThatThrownBy(() -> start(Map.of("chan.gateway.models[0].example", "")))
                .hasMessageContaining("chan.gateway.models[lease].example");
        assertThatThrownBy(() -> start(Map.of("chan.gateway.models[0].unit-parameter", "country")))
                .hasMessageContaining("chan.gateway.models[lease]: per-unit pricing needs unit-parameter");
        assertThatThrownBy(() -> start(Map.of("chan.gateway.models[0].max-units", "")))
                .hasMessageContaining("1 <= min-units <= max-units");
        assertThatThrownBy(() -> start(Map.of("chan.gateway.models[0].upstream", "nowhere")))
                .hasMessageContaining("chan.gateway.models[lease].upstream: no upstream nowhere");
        assertThatThrownBy(() -> start(Map.of("chan.gateway.models[0].pricing", "tokens",
                "chan.gateway.models[0].input-per-1k-tokens", "0.01", "chan.gateway.models[0].output-per-1k-tokens", "0")))
                .hasMessageContaining("is priced flat or per-unit, not per token");
        assertThatThrownBy(() -> start(Map.of("chan.gateway.upstreams[0].url", "http://127.0.0.1:9/lease/{city}")))
                .hasMessageContaining("needs {city}, which its parameters do not require");
        assertThatThrownBy(() -> start(Map.of("chan.gateway.upstreams[0].params", "form")))
                .hasMessageContaining("chan.gateway.upstreams[vpn].params must be json-body, query or path");
        assertThatThrownBy(() -> start(Map.of("chan.gateway.upstreams[0].headers.Host", "elsewhere")))
                .hasMessageContaining("chan.gateway.upstreams[vpn].headers");
        assertThatThrownBy(() -> start(Map.of("chan.gateway.models[0].upstream", "chat",
                "chan.gateway.upstreams[1].name", "chat", "chan.gateway.upstreams[1].kind", "echo",
                "chan.gateway.models[0].pricing", "flat", "chan.gateway.models[0].price", "0.01")))
                .hasMessageContaining("parameters and per-unit pricing are for models of an http upstream");
        assertThatThrownBy(() -> start(Map.of("chan.gateway.models[0].answer-schema", "{\"type\": ")))
                .hasMessageContaining("chan.gateway.models[lease].answer-schema is not valid JSON");
        assertThatThrownBy(() -> start(Map.of("chan.gateway.models[0].answer-schema", "{\"type\": \"thing\"}")))
                .hasMessageContaining("chan.gateway.models[lease].answer-schema is not a valid JSON Schema");
        assertThatThrownBy(() -> start(Map.of("chan.gateway.models[0].answer-schema", "[]")))
                .hasMessageContaining("chan.gateway.models[lease].answer-schema must be a JSON Schema");
        assertThatThrownBy(() -> start(Map.of("chan.gateway.models[0].upstream", "chat",
                "chan.gateway.upstreams[1].name", "chat", "chan.gateway.upstreams[1].kind", "echo",
                "chan.gateway.models[0].pricing", "flat", "chan.gateway.models[0].price", "0.01",
                "chan.gateway.models[0].parameters", "", "chan.gateway.models[0].example", "",
                "chan.gateway.models[0].answer-schema", "{\"type\": \"object\"}")))
                .hasMessageContaining("chan.gateway.models[lease].answer-schema is for models of an http upstream");
    }

    @Test
    void theKeyComesFromItsFileAndChosenStatusesAloneFail(@TempDir Path directory) throws Exception {
        Path keyFile = directory.resolve("service-key");
        Files.writeString(keyFile, "file-key-31415\n");
        ServiceStub stub = ServiceStub.shared();
        Map<String, String> settings = Map.of("chan.gateway.upstreams[0].name", "probe",
                "chan.gateway.upstreams[0].method", "GET",
                "chan.gateway.upstreams[0].url", stub.baseUrl() + "/lease/{country}",
                "chan.gateway.upstreams[0].api-key-file", keyFile.toString(),
                "chan.gateway.upstreams[1].name", "missing",
                "chan.gateway.upstreams[1].url", stub.baseUrl() + "/nothing-here",
                "chan.gateway.upstreams[2].name", "missing-tolerated",
                "chan.gateway.upstreams[2].url", stub.baseUrl() + "/nothing-here",
                "chan.gateway.upstreams[2].failure-statuses", "5xx,429");
        GatewayProperties properties = bind(settings);
        String marker = "m" + System.nanoTime();
        ObjectNode parameters = JSON.createObjectNode().put("country", "FR").put("marker", marker);

        ServiceParameters declaration = ServiceParameters.declare("probe", "{\"type\":\"object\",\"properties\":{}}",
                "{}", null, null, JSON);

        String answer = HttpServiceUpstream.of(properties.upstreams().get(0), JSON).call(parameters, declaration);

        assertThat(JSON.readTree(answer).path("country").asText()).isEqualTo("FR");
        ServiceStub.Received received = stub.find(r -> marker.equals(queryValue(r.query()))).orElseThrow();
        assertThat(received.header("Authorization")).isEqualTo("Bearer file-key-31415");
        assertThat(received.query()).isEqualTo("marker=" + marker);
        assertThatThrownBy(() -> HttpServiceUpstream.of(properties.upstreams().get(1), JSON).call(parameters,
                declaration))
                .isInstanceOf(Upstream.UpstreamException.class).hasMessage("the service answered HTTP 404");
        // a status that is not a failure makes its body the answer, if it is one: this 404's text is not JSON
        assertThatThrownBy(() -> HttpServiceUpstream.of(properties.upstreams().get(2), JSON).call(parameters,
                declaration))
                .isInstanceOf(Upstream.UpstreamException.class).hasMessage("the service's answer is not JSON");
    }

    /** A provider file of the local network (deploy/devnet/providers), bound as the service binds it. */
    private static GatewayProperties localNetworkProvider(String file) throws Exception {
        MutablePropertySources sources = new MutablePropertySources();
        new YamlPropertySourceLoader().load(file, new FileSystemResource("../deploy/devnet/providers/" + file))
                .forEach(sources::addLast);
        sources.addFirst(new MapPropertySource("environment", Map.of("server.port", "8082",
                "CHAN_PUBLIC_URL", "http://127.0.0.1:8082", "UPSTREAM_STUB_URL", "http://127.0.0.1:8083")));
        return new Binder(ConfigurationPropertySources.from(sources), new PropertySourcesPlaceholdersResolver(sources))
                .bind("chan.gateway", Bindable.of(GatewayProperties.class)).get();
    }

    @Test
    void theLocalNetworksServicesProviderSellsAWordCountFlatAndALeasePerMinute() throws Exception {
        GatewayProperties properties = localNetworkProvider("services-provider.yml");
        PriceList prices = PriceList.of(properties, 0, JSON);
        Upstreams upstreams = Upstreams.of(properties, prices, JSON, Clock.systemUTC());

        PriceList.ModelRate wordCount = prices.model("word-count").orElseThrow();
        assertThat(wordCount.kind()).isEqualTo(PriceKind.FLAT);
        assertThat(wordCount.inputPer1k()).isEqualTo(BigInteger.valueOf(1_000));
        assertThat(wordCount.service().answerViolations(JSON.readTree("{\"words\":4,\"characters\":19,\"lines\":2}")))
                .as("the word count's answer is what its model declares").isEmpty();
        assertThat(wordCount.service().answerViolations(JSON.readTree("{\"words\":\"four\"}"))).isNotEmpty();
        assertThat(upstreams.service(wordCount)).hasToString(
                "HttpServiceUpstream[word-count: POST http://127.0.0.1:8082/demo/word-count]");
        PriceList.ModelRate lease = prices.model("relay-lease").orElseThrow();
        assertThat(lease.kind()).isEqualTo(PriceKind.PER_UNIT);
        assertThat(lease.inputPer1k()).as("the highest price of one request: 240 minutes").isEqualTo(
                BigInteger.valueOf(24_000));
        assertThat(upstreams.service(lease)).hasToString(
                "HttpServiceUpstream[leases: POST http://127.0.0.1:8083/v1/leases]");
        assertThat(properties.wordCountEndpoint()).isTrue();
    }

    @Test
    void theLocalNetworksChatProviderSellsChatThroughAnOpenAiCompatibleApi() throws Exception {
        GatewayProperties properties = localNetworkProvider("chat-provider.yml");
        PriceList prices = PriceList.of(properties, 0, JSON);
        Upstreams upstreams = Upstreams.of(properties, prices, JSON, Clock.systemUTC());

        assertThat(upstreams.chat(prices.model("stub-chat-1").orElseThrow())).isInstanceOf(OpenAiUpstream.class);
        assertThat(prices.model("stub-chat-flat").orElseThrow().outputPer1k()).isZero();
        assertThat(properties.upstreams()).singleElement().satisfies(chat -> {
            assertThat(chat.kind()).isEqualTo("openai");
            assertThat(chat.baseUrl()).isEqualTo("http://127.0.0.1:8083/v1");
        });
    }

    private static String queryValue(String query) {
        return query == null || !query.startsWith("marker=") ? null : query.substring("marker=".length());
    }
}
