package io.chanledger.api.provider.watchtower;

import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.util.StringUtils;

/** True when the watchtower has a node to claim through: its own RPC URL or the chain's. */
class ClaimsConfigured implements Condition {

    @Override
    public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
        return StringUtils.hasText(context.getEnvironment().getProperty("chan.gateway.watchtower.rpc-url"))
                || StringUtils.hasText(context.getEnvironment().getProperty("chan.chain.rpc-url"));
    }
}
