package io.chanledger.api.ledger.chain;

import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.util.StringUtils;

/** True when {@code chan.chain.rpc-url} has a value (an empty one means "no chain"). */
class RpcConfigured implements Condition {

    @Override
    public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
        return StringUtils.hasText(context.getEnvironment().getProperty("chan.chain.rpc-url"));
    }
}
