package io.chanledger.api.http;

import com.fasterxml.jackson.core.util.JsonRecyclerPools;
import io.chanledger.domain.money.DecimalTextSerializer;
import io.swagger.v3.oas.models.media.StringSchema;
import java.math.BigInteger;
import org.springdoc.core.utils.SpringDocUtils;
import org.springframework.boot.autoconfigure.jackson.Jackson2ObjectMapperBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Amounts are uint256 base units: the API writes them as decimal strings, never as JSON numbers,
 * and its OpenAPI document says so (left to itself it would describe them as integers, and
 * clients generated from it would read them into doubles). JSON's working buffers are pooled for
 * the process, not kept per thread.
 */
@Configuration(proxyBeanMethods = false)
class JsonConfiguration {

    static {
        SpringDocUtils.getConfig().replaceWithSchema(BigInteger.class,
                new StringSchema().pattern("^[0-9]+$").description("uint256 as a decimal string (USDC: base units)"));
    }

    @Bean
    Jackson2ObjectMapperBuilderCustomizer uint256AsDecimalStrings() {
        return builder -> builder.serializerByType(BigInteger.class, DecimalTextSerializer.INSTANCE);
    }

    /**
     * The application's JSON reads and writes take their working buffers from one bounded pool
     * shared by all threads. Jackson keeps them per thread by default, and the HTTP handlers are
     * virtual threads, one per request, so every request allocated new ones: a parse or a write
     * took buffers of several kilobytes, and under load they were about a sixth of all the bytes
     * the service allocated (BENCHMARKS.md, "The paid request": hot-path JSON). The pool keeps at most Jackson's
     * default number of idle buffer sets; past it, released buffers are left to the collector.
     */
    @Bean
    Jackson2ObjectMapperBuilderCustomizer jsonBuffersPooledAcrossThreads() {
        return builder -> builder.postConfigurer(
                json -> json.getFactory().setRecyclerPool(JsonRecyclerPools.sharedBoundedPool()));
    }
}
