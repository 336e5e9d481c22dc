package io.chanledger.api.http;

import org.springframework.boot.autoconfigure.web.servlet.WebMvcRegistrations;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

/** Controllers are mapped by {@link HotPathHandlerMapping}: Spring's mapping, the hot paths tried first. */
@Configuration(proxyBeanMethods = false)
class HotPathMappingConfiguration {

    @Bean
    WebMvcRegistrations hotPathsLookedUpFirst() {
        return new WebMvcRegistrations() {
            @Override
            public RequestMappingHandlerMapping getRequestMappingHandlerMapping() {
                return new HotPathHandlerMapping();
            }
        };
    }
}
