package io.chanledger.api.web;

import com.fasterxml.jackson.databind.ser.std.ToStringSerializer;
import java.math.BigInteger;
import org.springframework.boot.autoconfigure.jackson.Jackson2ObjectMapperBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Amounts are uint256 base units: the API writes them as decimal strings, never as JSON numbers. */
@Configuration(proxyBeanMethods = false)
class JsonConfiguration {

    @Bean
    Jackson2ObjectMapperBuilderCustomizer uint256AsDecimalStrings() {
        return builder -> builder.serializerByType(BigInteger.class, ToStringSerializer.instance);
    }
}
