package io.chanledger.api.support;

import io.chanledger.api.config.Role;
import io.chanledger.testsupport.AnvilNode;
import io.chanledger.testsupport.Devnet;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A provider ({@code chan.role=provider}, the tests' gateway and watchtower) on a fresh database of
 * its own, following an anvil node of its own with the contracts deployed: for chain behaviour the
 * shared devnet must not see, such as a clock moved far ahead or a finality rule that leaves the
 * listener behind. The caller closes it, node and all.
 */
public final class ProviderOnOwnChain implements AutoCloseable {

    public final AnvilNode node;
    public final Devnet devnet;
    public final ConfigurableApplicationContext context;

    private ProviderOnOwnChain(AnvilNode node, Devnet devnet, ConfigurableApplicationContext context) {
        this.node = node;
        this.devnet = devnet;
        this.context = context;
    }

    /** Starts the node, deploys the contracts and starts the provider with {@code settings} over the tests' own. */
    public static ProviderOnOwnChain start(String database, Map<String, Object> settings) {
        AnvilNode node = AnvilNode.start();
        try {
            Devnet devnet = Devnet.deploy(node);
            Map<String, Object> properties = new LinkedHashMap<>();
            properties.put("chan.chain.rpc-url", devnet.rpcUrl());
            properties.put("chan.chain.channel-contract", devnet.channelAddress());
            properties.put("chan.chain.usdc", devnet.usdcAddress());
            properties.putAll(settings);
            return new ProviderOnOwnChain(node, devnet, RoleInstance.start(Role.PROVIDER, database, properties));
        } catch (RuntimeException e) {
            node.close();
            throw e;
        }
    }

    public String baseUrl() {
        return RoleInstance.baseUrl(context);
    }

    /** The node's head block number. */
    public long head() {
        try {
            return devnet.web3j().ethBlockNumber().send().getBlockNumber().longValueExact();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Mines {@code blocks} empty blocks. */
    public void mine(int blocks) {
        for (int i = 0; i < blocks; i++) {
            devnet.mine();
        }
    }

    @Override
    public void close() {
        try {
            context.close();
        } finally {
            node.close();
        }
    }
}
