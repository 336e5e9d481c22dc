package io.chanledger.api.provider.gateway;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.context.annotation.Conditional;

/**
 * Only in gateway mode: always in a provider ({@code chan.role=provider}); in a process of every
 * role ({@code chan.role=all}) when {@code chan.gateway.enabled=true}.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
@Conditional(GatewayMode.class)
public @interface ConditionalOnGateway {
}
