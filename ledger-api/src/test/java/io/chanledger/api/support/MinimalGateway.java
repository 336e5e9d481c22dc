package io.chanledger.api.support;

import java.util.HashMap;
import java.util.Map;

/**
 * The least a process of every role ({@code chan.role=all}) needs to start, since it runs the
 * provider's gateway too: a provider key (devnet-only) and one model of an echo upstream. For tests
 * that start the service without the test profile and do not use the gateway.
 */
public final class MinimalGateway {

    private MinimalGateway() {
    }

    /** These settings with {@code others}, for {@link SecretsFile#argument}. */
    public static Map<String, String> settingsWith(Map<String, String> others) {
        Map<String, String> settings = new HashMap<>(Map.of(
                "chan.gateway.provider-key", "0x715a48a4b5929015260802e728408f658958759273c7dea32bb2b0540ca13e2e",
                "chan.gateway.models[0].id", "echo-1",
                "chan.gateway.models[0].upstream", "echo",
                "chan.gateway.models[0].input-per-1k-tokens", "0.00375",
                "chan.gateway.models[0].output-per-1k-tokens", "0.015",
                "chan.gateway.upstreams[0].name", "echo",
                "chan.gateway.upstreams[0].kind", "echo"));
        settings.putAll(others);
        return settings;
    }
}
