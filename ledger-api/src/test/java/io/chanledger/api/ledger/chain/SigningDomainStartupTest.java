package io.chanledger.api.ledger.chain;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.chanledger.api.LedgerApplication;
import io.chanledger.api.support.TestDatabases;
import io.chanledger.testsupport.Devnet;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The service refuses to start when the channel contract it is pointed at verifies signatures in
 * another EIP-712 domain than the configured one: here the devnet's contract, configured as if it
 * were deployed on Amoy (chain 80002), so every voucher signed for the configured domain would
 * be refused on-chain. (Every other test's context starts with the right domain.)
 */
class SigningDomainStartupTest {

    private static final Devnet DEVNET = Devnet.shared();

    private static ConfigurableApplicationContext start(long chainId) {
        return new SpringApplicationBuilder(LedgerApplication.class)
                .profiles("postgres", "test")
                .run("--server.port=0",
                        "--spring.datasource.url=" + TestDatabases.recreate("chan_ledger_signing_domain_test"),
                        "--spring.datasource.username=" + TestDatabases.USER,
                        "--spring.datasource.password=" + TestDatabases.PASSWORD,
                        "--chan.chain.rpc-url=" + DEVNET.rpcUrl(),
                        "--chan.chain.chain-id=" + chainId,
                        "--chan.chain.channel-contract=" + DEVNET.channelAddress(),
                        "--chan.chain.usdc=" + DEVNET.usdcAddress(),
                        "--chan.listener.enabled=false");
    }

    @Test
    void aContractOfAnotherSigningDomainStopsStartUp() {
        assertThatThrownBy(() -> start(80_002).close())
                .rootCause()
                .hasMessageContaining("refusing to start")
                .hasMessageContaining("chain 80002")
                .hasMessageContaining(DEVNET.channelAddress());
    }
}
