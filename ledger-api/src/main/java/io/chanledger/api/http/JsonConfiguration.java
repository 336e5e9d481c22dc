package io.chanledger.api.http;

import com.fasterxml.jackson.databind.ser.std.ToStringSerializer;
import io.swagger.v3.oas.models.media.StringSchema;
import java.math.BigInteger;
import org.springdoc.core.utils.SpringDocUtils;
import org.springframework.boot.autoconfigure.jackson.Jackson2ObjectMapperBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Amounts are uint256 base units: the API writes them as decimal strings, never as JSON numbers,
 * and its OpenAPI document says so (left to itself it would describe them as integers, and
 * clients generated from it would read them into doubles).
 */
@Configuration(proxyBeanMethods = false)
class JsonConfiguration {

    static {
        SpringDocUtils.getConfig().replaceWithSchema(BigInteger.class,
                new StringSchema().pattern("^[0-9]+$").description("uint256 as a decimal string (USDC: base units)"));
    }

    @Bean
    Jackson2ObjectMapperBuilderCustomizer uint256AsDecimalStrings() {
        return builder -> builder.serializerByType(BigInteger.class, ToStringSerializer.instance);
    }
}
