package io.chanledger.api.provider.gateway;

import io.chanledger.api.config.Role;
import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * The condition of {@link ConditionalOnGateway}. A provider is its gateway, so it needs no switch;
 * a process of every role keeps the switch it always had. A marketplace never scans this package.
 */
class GatewayMode implements Condition {

    @Override
    public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
        return switch (Role.of(context.getEnvironment())) {
            case PROVIDER -> true;
            case ALL -> Boolean.parseBoolean(context.getEnvironment().getProperty("chan.gateway.enabled", "false").trim());
            case MARKETPLACE -> false;
        };
    }
}
