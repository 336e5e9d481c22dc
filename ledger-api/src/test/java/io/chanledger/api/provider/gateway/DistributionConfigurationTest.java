package io.chanledger.api.provider.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.chanledger.api.config.ChainProperties;
import io.chanledger.api.marketplace.directory.MarketplaceProperties;
import io.chanledger.domain.provider.PriceKind;
import java.math.BigInteger;
import java.time.Clock;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.PropertySourcesPlaceholdersResolver;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.env.EnumerablePropertySource;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.FileSystemResource;

/**
 * The example configuration the distribution ships (deploy/dist/etc), bound as the service binds
 * it, placeholders resolved from the environment the distribution's README and units give it: a
 * provider or an operator starts from a file that starts, and finds no secret written in it.
 */
class DistributionConfigurationTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Map<String, Object> ENVIRONMENT = Map.of(
            "CHAN_RPC_URL", "https://polygon.node.example/key-123",
            "OPENAI_API_KEY", "sk-test-openai",
            "SCRAPER_API_KEY", "scraper-test-key");

    @Test
    void theExampleProviderSellsChatPerTokenAndAPageFetchAtAFlatPrice() throws Exception {
        MutablePropertySources sources = load("provider.yml");
        Binder binder = binder(sources);
        GatewayProperties gateway = binder.bind("chan.gateway", Bindable.of(GatewayProperties.class)).get();
        PriceList prices = PriceList.of(gateway, 0, JSON);
        Upstreams upstreams = Upstreams.of(gateway, prices, JSON, Clock.systemUTC());

        assertThat(gateway.providerKey()).as("the wallet's key is a file, never the file's text").isNull();
        assertThat(gateway.providerKeyFile()).isEqualTo("/etc/chan-ledger/provider.key");
        assertThat(gateway.publicUrl()).startsWith("https://");
        PriceList.ModelRate chat = prices.model("gpt-4o-mini").orElseThrow();
        assertThat(chat.kind()).isEqualTo(PriceKind.TOKENS);
        assertThat(chat.inputPer1k()).isEqualTo(BigInteger.valueOf(200));
        assertThat(chat.outputPer1k()).isEqualTo(BigInteger.valueOf(800));
        assertThat(upstreams.chat(chat)).isInstanceOf(OpenAiUpstream.class);
        assertThat(gateway.upstreams()).filteredOn(upstream -> upstream.name().equals("openai"))
                .singleElement().satisfies(upstream -> assertThat(upstream.apiKey()).isEqualTo("sk-test-openai"));
        PriceList.ModelRate pageFetch = prices.model("page-fetch").orElseThrow();
        assertThat(pageFetch.kind()).isEqualTo(PriceKind.FLAT);
        assertThat(pageFetch.inputPer1k()).isEqualTo(BigInteger.valueOf(10_000));
        assertThat(upstreams.service(pageFetch)).hasToString(
                "HttpServiceUpstream[scraper: POST https://scraper.example/v2/fetch]");
        assertThat(pageFetch.service().violations(JSON.readTree("{\"url\": 7}"))).isNotEmpty();

        ChainProperties chain = binder.bind("chan.chain", Bindable.of(ChainProperties.class)).get();
        assertThat(chain.rpcUrl()).isEqualTo("https://polygon.node.example/key-123");
        assertThat(chain.chainId()).isEqualTo(137);
        assertThat(binder.bind("chan.provider.marketplace-url", String.class).get())
                .as("the marketplace the provider lists itself at, whose signing information its 402 names")
                .isEqualTo(gateway.signingUrl().replace("/api/chan/signing", ""));
        assertThat(binder.bind("chan.embedded-store.directory", String.class).get()).isEqualTo("./data/provider");
        assertNoUnresolvedPlaceholder(sources, binder);
    }

    @Test
    void theExampleMarketplaceFollowsTheChainOnItsOwnStore() throws Exception {
        MutablePropertySources sources = load("marketplace.yml");
        Binder binder = binder(sources);

        MarketplaceProperties marketplace = binder.bind("chan.marketplace", Bindable.of(MarketplaceProperties.class)).get();
        assertThat(marketplace.marketplaceUrl()).isEqualTo("https://marketplace.example");
        ChainProperties chain = binder.bind("chan.chain", Bindable.of(ChainProperties.class)).get();
        assertThat(chain.rpcUrl()).isEqualTo("https://polygon.node.example/key-123");
        assertThat(binder.bind("chan.gateway", Bindable.mapOf(String.class, Object.class)).isBound())
                .as("no provider setting in the marketplace's file").isFalse();
        assertThat(binder.bind("chan.embedded-store.directory", String.class).get())
                .as("a store of its own beside a provider's in the same working directory").isEqualTo("./data/marketplace");
        assertNoUnresolvedPlaceholder(sources, binder);
    }

    @Test
    void neitherExampleWritesASecretOnlyReferencesOne() throws Exception {
        for (String file : List.of("provider.yml", "marketplace.yml")) {
            EnumerablePropertySource<?> raw = (EnumerablePropertySource<?>) load(file).get(file);
            List<String> secrets = Arrays.stream(raw.getPropertyNames())
                    .filter(name -> name.endsWith("api-key") || name.endsWith("provider-key") || name.endsWith("faucet-key")
                            || name.endsWith("token") || name.endsWith("password") || name.endsWith("rpc-url"))
                    .toList();
            assertThat(secrets).as(file).isNotEmpty().allSatisfy(name -> assertThat(String.valueOf(raw.getProperty(name)))
                    .as("%s of %s", name, file).matches("\\$\\{[A-Z_]+}"));
        }
    }

    /** The file as the service reads it, below the environment it is started with. */
    private static MutablePropertySources load(String file) throws Exception {
        MutablePropertySources sources = new MutablePropertySources();
        for (PropertySource<?> source : new YamlPropertySourceLoader().load(file,
                new FileSystemResource("../deploy/dist/etc/" + file))) {
            sources.addLast(source);
        }
        sources.addFirst(new MapPropertySource("environment", ENVIRONMENT));
        return sources;
    }

    private static Binder binder(MutablePropertySources sources) {
        return new Binder(ConfigurationPropertySources.from(sources), new PropertySourcesPlaceholdersResolver(sources));
    }

    /** Every placeholder names a variable the units' environment files set, so none is left as text. */
    private static void assertNoUnresolvedPlaceholder(MutablePropertySources sources, Binder binder) {
        sources.stream().filter(EnumerablePropertySource.class::isInstance).map(EnumerablePropertySource.class::cast)
                .filter(source -> !source.getName().equals("environment"))
                .flatMap(source -> Arrays.stream(source.getPropertyNames()))
                .forEach(name -> assertThat(binder.bind(name, String.class).orElse("")).as(name).doesNotContain("${"));
    }
}
