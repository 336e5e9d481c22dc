package io.chanledger.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;

import org.junit.jupiter.api.Test;
import org.web3j.protocol.core.DefaultBlockParameterName;

class DevnetTest {

    private final Devnet devnet = Devnet.shared();

    @Test
    void derivesAnvilsPublishedDefaultAccounts() {
        assertThat(DevnetAccounts.anvil(0).getAddress()).isEqualTo("0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266");
        assertThat(DevnetAccounts.anvil(9).getAddress()).isEqualTo("0xa0ee7a142d267c1f36714e4a8f75612f20a79720");
        assertThat(DevnetAccounts.CONSUMER_1.getAddress()).isEqualTo("0x5315f457a01c71a5d7ee87da126af57e8cdeda47");
    }

    @Test
    void deploysTheChannelContractWhereTheVectorsExpectItAndUsdcAtPolygonsAddress() throws Exception {
        assertThat(devnet.channelAddress()).isEqualTo(Devnet.VECTORS_CONTRACT);
        assertThat(devnet.usdcAddress()).isEqualTo("0x3c499c542cef5e3811e1192ce70d8cc03d5c3359");
        assertThat(devnet.usdc()).as("the channel contract's token").isEqualTo(devnet.usdcAddress());
        assertThat(devnet.feeBps()).isEqualTo(Devnet.FEE_BPS);
        assertThat(devnet.feeRecipient()).isEqualTo(Devnet.FEE_RECIPIENT);
        // the token's domain takes the address it sits at, not one it was created at
        UsdcAuthorizations token = devnet.usdcAuthorizations();
        assertThat(token.contractDomainSeparator()).isEqualTo(UsdcSignatures.domainSeparator(137, Devnet.POLYGON_USDC));
        String deployerSecondCreate = "0xe7f1725e7734ce288f8367e1bb143e90bb3f0512";
        assertThat(devnet.web3j().ethGetCode(deployerSecondCreate, DefaultBlockParameterName.LATEST).send().getCode())
                .isEqualTo("0x");
    }

    @Test
    void aFreshNodeGetsTheSameDeploymentAndFundedWallets() throws Exception {
        try (AnvilNode node = AnvilNode.start()) {
            Devnet fresh = Devnet.deploy(node);
            assertThat(fresh.channelAddress()).isEqualTo(Devnet.VECTORS_CONTRACT);
            assertThat(fresh.balanceOf(DevnetAccounts.PROVIDER_1.getAddress())).isEqualTo(Devnet.USDC_PER_WALLET);
            assertThat(fresh.balanceOf(DevnetAccounts.anvil(9).getAddress())).isEqualTo(Devnet.USDC_PER_WALLET);
            assertThat(fresh.balanceOf(DevnetAccounts.deployer().getAddress())).isZero();
            assertThat(fresh.web3j().ethGetBalance(DevnetAccounts.CONSUMER_1.getAddress(),
                    DefaultBlockParameterName.LATEST).send().getBalance()).isEqualTo(Devnet.GAS_MONEY);
            assertThat(node.port()).isNotEqualTo(devnet.node().port());
            assertThatThrownBy(() -> Devnet.deploy(node)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("already sent");
        }
    }

    @Test
    void snapshotRevertUndoesTransactions() {
        String stranger = DevnetAccounts.STRANGER_1.getAddress();
        BigInteger before = devnet.balanceOf(stranger);
        String snapshot = devnet.snapshot();
        devnet.mint(stranger, BigInteger.valueOf(123));
        assertThat(devnet.balanceOf(stranger)).isEqualTo(before.add(BigInteger.valueOf(123)));
        devnet.revertTo(snapshot);
        assertThat(devnet.balanceOf(stranger)).isEqualTo(before);
    }

    @Test
    void sendReportsTheCustomErrorOfARevert() {
        String unknownChannel = "0x" + "ab".repeat(32);
        assertThatThrownBy(() -> devnet.close(DevnetAccounts.anvil(1), unknownChannel))
                .isInstanceOfSatisfying(ContractRevertedException.class,
                        e -> assertThat(e.error()).isEqualTo("ChannelNotFound"));
    }

    @Test
    void timeTravelMovesTheNextBlock() {
        String snapshot = devnet.snapshot();
        try {
            BigInteger now = devnet.latestBlockTimestamp();
            devnet.setNextBlockTimestamp(now.longValueExact() + 1000);
            devnet.mine();
            assertThat(devnet.latestBlockTimestamp()).isEqualTo(now.add(BigInteger.valueOf(1000)));
        } finally {
            devnet.revertTo(snapshot);
        }
    }
}
