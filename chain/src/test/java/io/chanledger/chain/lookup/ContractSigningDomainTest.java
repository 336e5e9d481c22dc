package io.chanledger.chain.lookup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.chanledger.chain.abi.ChannelContract;
import io.chanledger.testsupport.Devnet;
import io.chanledger.domain.eip712.KnownAnswerVectors;
import io.chanledger.chain.rpc.EthApi;
import io.chanledger.chain.rpc.JsonRpcClient;
import io.chanledger.chain.rpc.RetryPolicy;
import io.chanledger.chain.rpc.RpcException;
import io.chanledger.domain.eip712.ChanTypedData;
import io.chanledger.domain.eip712.Eip712Domain;
import io.chanledger.domain.eip712.Hex;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.web3j.crypto.Hash;

/** The domain separator is read from whichever getter the contract has, and compared with the configured domain. */
class ContractSigningDomainTest {

    private static final Devnet DEVNET = Devnet.shared();

    private final EthApi eth = new EthApi(new JsonRpcClient(DEVNET.rpcUrl(), Duration.ofSeconds(5), RetryPolicy.defaults()));

    /**
     * Runtime code of a contract that, like the deployed one, answers {@code DOMAIN_SEPARATOR()}
     * with {@code separator} and reverts on any other call (so also on {@code domainSeparator()}).
     */
    private static String deployedStyleCode(String separator) {
        String selector = ChannelContract.DOMAIN_SEPARATOR_SELECTOR.substring(2);
        return "0x6000" + "35" + "60e0" + "1c" + "63" + selector + "14" + "6013" + "57" + "6000" + "80" + "fd"
                + "5b" + "7f" + separator.substring(2) + "6000" + "52" + "6020" + "6000" + "f3";
    }

    private static String freshAddress() {
        return "0x" + Hash.sha3String(UUID.randomUUID().toString()).substring(26);
    }

    private static void setCode(String address, String code) {
        DEVNET.rpc().raw("anvil_setCode", address, code);
    }

    private static String separatorOf(Eip712Domain domain) {
        return Hex.encode(new ChanTypedData(domain).domainSeparator());
    }

    @Test
    void readsTheProjectContractsDomainSeparatorAndAcceptsItsDomain() {
        assertThat(ContractSigningDomain.read(eth, DEVNET.channelAddress()))
                .contains(KnownAnswerVectors.root().path("domainSeparator").asText());

        ContractSigningDomain.verify(eth, Eip712Domain.chan(DEVNET.chainId(), DEVNET.channelAddress()));
    }

    @Test
    void readsTheDeployedContractsDomainSeparatorGetter() {
        String contract = freshAddress();
        Eip712Domain domain = Eip712Domain.chan(DEVNET.chainId(), contract);
        setCode(contract, deployedStyleCode(separatorOf(domain)));

        assertThat(ContractSigningDomain.read(eth, contract)).contains(separatorOf(domain));
        ContractSigningDomain.verify(eth, domain);
    }

    @Test
    void aContractOfAnotherChainsDomainIsAMismatch() {
        Eip712Domain amoy = Eip712Domain.chan(80_002, DEVNET.channelAddress());

        assertThatThrownBy(() -> ContractSigningDomain.verify(eth, amoy))
                .isInstanceOf(ContractSigningDomain.MismatchException.class)
                .hasMessageContaining(KnownAnswerVectors.root().path("domainSeparator").asText())
                .hasMessageContaining(separatorOf(amoy))
                .hasMessageContaining("chain 80002");
    }

    @Test
    void anAddressWithoutEitherGetterIsNoChannelContract() {
        String noCode = freshAddress();
        // a contract that reverts on every call, so on both getters
        String otherContract = freshAddress();
        setCode(otherContract, "0x6000" + "80" + "fd");

        for (String contract : new String[] {noCode, otherContract}) {
            assertThat(ContractSigningDomain.read(eth, contract)).isEmpty();
            assertThatThrownBy(() -> ContractSigningDomain.verify(eth, Eip712Domain.chan(DEVNET.chainId(), contract)))
                    .isInstanceOf(ContractSigningDomain.MismatchException.class)
                    .hasMessageContaining("neither DOMAIN_SEPARATOR() nor domainSeparator()");
        }
    }

    @Test
    void theTokenAnswersItsOwnDomainWhichIsNoChannelContracts() {
        // the devnet's USDC signs EIP-3009 authorizations in USD Coin / 2: configured as the channel
        // contract, its DOMAIN_SEPARATOR() answers and differs
        Eip712Domain usdc = Eip712Domain.chan(DEVNET.chainId(), DEVNET.usdcAddress());

        assertThat(ContractSigningDomain.read(eth, DEVNET.usdcAddress()))
                .contains(Hex.encode(DEVNET.usdcAuthorizations().domainSeparator()));
        assertThatThrownBy(() -> ContractSigningDomain.verify(eth, usdc))
                .isInstanceOf(ContractSigningDomain.MismatchException.class)
                .hasMessageContaining("checks signatures under domain separator");
    }

    @Test
    void aNodeThatDoesNotAnswerIsNoVerdict() throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }
        EthApi unreachable = new EthApi(new JsonRpcClient("http://127.0.0.1:" + closedPort, Duration.ofSeconds(1),
                RetryPolicy.none()));

        assertThatThrownBy(() -> ContractSigningDomain.verify(unreachable,
                Eip712Domain.chan(DEVNET.chainId(), DEVNET.channelAddress())))
                .isInstanceOf(RpcException.class);
    }
}
