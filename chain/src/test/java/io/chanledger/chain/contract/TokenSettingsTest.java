package io.chanledger.chain.contract;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;

import io.chanledger.testsupport.Devnet;
import io.chanledger.testsupport.DevnetAccounts;
import io.chanledger.testsupport.OpenedChannel;
import org.junit.jupiter.api.Test;
import org.web3j.crypto.Credentials;
import org.web3j.protocol.core.methods.response.Log;
import org.web3j.protocol.core.methods.response.TransactionReceipt;

/** The owner can move the contract to another token, logged as the deployed contract logs it. */
class TokenSettingsTest extends ContractTestSupport {

    private static final Credentials OWNER = DevnetAccounts.deployer();

    @Test
    void onlyTheOwnerMaySetTheToken() {
        assertReverts(() -> DEVNET.setUsdc(STRANGER, STRANGER.getAddress()), "NotOwner");
    }

    @Test
    void theTokenCannotBeTheZeroAddress() {
        assertReverts(() -> DEVNET.setUsdc(OWNER, "0x0000000000000000000000000000000000000000"), "InvalidAddress");
    }

    @Test
    void setUsdcEmitsUsdcUpdatedAndLaterOpensPullTheNewToken() {
        String newToken = DEVNET.deployTestUsdc(STRANGER);

        TransactionReceipt receipt = DEVNET.setUsdc(OWNER, newToken);

        assertThat(DEVNET.eventNames(receipt)).containsExactly("USDCUpdated");
        Log updated = DEVNET.logs(receipt, "USDCUpdated").getFirst();
        assertThat(Devnet.topicAddress(updated, 1)).isEqualTo(DEVNET.usdcAddress());
        assertThat(Devnet.topicAddress(updated, 2)).isEqualTo(newToken.toLowerCase());
        assertThat(updated.getData()).isEqualTo("0x");
        assertThat(DEVNET.usdc()).isEqualTo(newToken.toLowerCase());

        DEVNET.mint(newToken, CONSUMER.getAddress(), DEPOSIT);
        DEVNET.approve(newToken, CONSUMER, DEVNET.channelAddress(), DEPOSIT);
        BigInteger oldTokenHeld = balance(DEVNET.channelAddress());
        OpenedChannel channel = DEVNET.open(CONSUMER, PROVIDER.getAddress(), DEPOSIT, ONE_DAY);

        assertThat(DEVNET.balanceOf(newToken, DEVNET.channelAddress())).isEqualTo(DEPOSIT);
        assertThat(balance(DEVNET.channelAddress())).isEqualTo(oldTokenHeld);
        assertThat(channel.deposit()).isEqualTo(DEPOSIT);
    }
}
