package io.chanledger.chain.contract;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.List;

import io.chanledger.testsupport.Devnet;
import io.chanledger.testsupport.DevnetAccounts;
import io.chanledger.testsupport.OpenedChannel;
import org.junit.jupiter.api.Test;
import org.web3j.abi.FunctionEncoder;
import org.web3j.abi.datatypes.Function;
import org.web3j.crypto.Credentials;
import org.web3j.protocol.core.methods.response.Log;
import org.web3j.protocol.core.methods.response.TransactionReceipt;

class FeeSettingsTest extends ContractTestSupport {

    private static final Credentials OWNER = DevnetAccounts.deployer();

    @Test
    void startsWithTheProtocolFeeOf200BasisPoints() {
        assertThat(DEVNET.feeBps()).isEqualTo(BigInteger.valueOf(200));
        assertThat(DEVNET.feeRecipient()).isEqualTo(DevnetAccounts.FEE_RECIPIENT_1.getAddress());
    }

    @Test
    void onlyTheOwnerMaySetTheFee() {
        assertReverts(() -> DEVNET.setFee(STRANGER, STRANGER.getAddress(), BigInteger.ONE), "NotOwner");
    }

    @Test
    void setFeeEmitsFeeUpdatedAndAppliesToLaterClaims() {
        TransactionReceipt receipt = DEVNET.setFee(OWNER, STRANGER.getAddress(), BigInteger.valueOf(100));
        assertThat(DEVNET.eventNames(receipt)).containsExactly("FeeUpdated");
        Log updated = DEVNET.logs(receipt, "FeeUpdated").getFirst();
        assertThat(Devnet.topicAddress(updated, 1)).isEqualTo(STRANGER.getAddress());
        assertThat(Devnet.amountOf(updated)).isEqualTo(BigInteger.valueOf(100));

        OpenedChannel channel = openChannel(DEPOSIT, ONE_DAY);
        BigInteger strangerBefore = balance(STRANGER);
        claim(channel, 750_000, 1);
        assertThat(balance(STRANGER)).isEqualTo(strangerBefore.add(usdc(7_500)));
    }

    @Test
    void capsTheFeeAtTenPercent() {
        DEVNET.setFee(OWNER, STRANGER.getAddress(), BigInteger.valueOf(1_000));
        assertReverts(() -> DEVNET.setFee(OWNER, STRANGER.getAddress(), BigInteger.valueOf(1_001)), "FeeTooHigh");
    }

    @Test
    void aNonZeroFeeNeedsARecipient() {
        assertReverts(() -> DEVNET.setFee(OWNER, "0x0000000000000000000000000000000000000000", BigInteger.ONE),
                "InvalidAddress");
    }

    @Test
    void aZeroFeePaysTheProviderInFullWithoutFeePaid() {
        DEVNET.setFee(OWNER, "0x0000000000000000000000000000000000000000", BigInteger.ZERO);
        OpenedChannel channel = openChannel(DEPOSIT, ONE_DAY);
        BigInteger providerBefore = balance(PROVIDER);

        TransactionReceipt receipt = DEVNET.claim(PROVIDER, channel.channelId(), usdc(750_000), BigInteger.ONE,
                voucher(channel, 750_000, 1));

        assertThat(DEVNET.eventNames(receipt)).containsExactly("ChannelClaimed");
        assertThat(balance(PROVIDER)).isEqualTo(providerBefore.add(usdc(750_000)));
    }

    @Test
    void renouncingOwnershipFreezesTheFee() {
        String renounce = FunctionEncoder.encode(new Function("renounceOwnership", List.of(), List.of()));
        TransactionReceipt receipt = DEVNET.rpc().send(OWNER, DEVNET.channelAddress(), renounce);
        assertThat(DEVNET.eventNames(receipt)).containsExactly("OwnershipRenounced");
        assertThat(Devnet.topicAddress(DEVNET.logs(receipt, "OwnershipRenounced").getFirst(), 1))
                .isEqualTo(OWNER.getAddress());
        assertReverts(() -> DEVNET.setFee(OWNER, STRANGER.getAddress(), BigInteger.ONE), "NotOwner");
    }
}
