package io.chanledger.api.provider.x402;

import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.util.StringUtils;

/** True when the provider's facilitator has a chain to settle on: {@code chan.chain.rpc-url} and {@code chan.chain.usdc}. */
class X402Configured implements Condition {

    @Override
    public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
        return StringUtils.hasText(context.getEnvironment().getProperty("chan.chain.rpc-url"))
                && StringUtils.hasText(context.getEnvironment().getProperty("chan.chain.usdc"));
    }
}
