package io.chanledger.chain.contract;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.Arrays;

import io.chanledger.testsupport.CallOutcome;
import io.chanledger.testsupport.Devnet;
import io.chanledger.testsupport.OpenedChannel;
import org.junit.jupiter.api.Test;
import org.web3j.crypto.Sign;
import org.web3j.protocol.core.methods.response.TransactionReceipt;
import org.web3j.utils.Numeric;

class CooperativeCloseTest extends ContractTestSupport {

    @Test
    void onlyTheConsumerMayCloseCooperatively() {
        OpenedChannel channel = openChannel(DEPOSIT, ONE_DAY);
        byte[] signature = closeAuthorization(channel, 500_000);
        assertReverts(() -> DEVNET.cooperativeClose(PROVIDER, channel.channelId(), usdc(500_000), signature), "NotConsumer");
        assertReverts(() -> DEVNET.cooperativeClose(STRANGER, channel.channelId(), usdc(500_000), signature), "NotConsumer");
    }

    @Test
    void rejectsAnUnknownChannel() {
        String unknown = "0x" + "22".repeat(32);
        byte[] signature = DEVNET.signCloseAuthorization(PROVIDER, unknown, usdc(1));
        assertReverts(() -> DEVNET.cooperativeClose(CONSUMER, unknown, usdc(1), signature), "ChannelNotFound");
    }

    @Test
    void requiresTheProvidersSignatureOverThisCloseAuthorization() {
        OpenedChannel channel = openChannel(DEPOSIT, ONE_DAY);
        String id = channel.channelId();
        byte[] byConsumer = DEVNET.signCloseAuthorization(CONSUMER, id, usdc(500_000));
        byte[] providerVoucher = DEVNET.signVoucher(PROVIDER, id, usdc(500_000), BigInteger.ZERO);
        byte[] otherAmount = closeAuthorization(channel, 400_000);

        assertRejected(DEVNET.callCooperativeClose(CONSUMER.getAddress(), id, usdc(500_000), byConsumer), "InvalidSignature");
        assertRejected(DEVNET.callCooperativeClose(CONSUMER.getAddress(), id, usdc(500_000), providerVoucher),
                "InvalidSignature");
        assertRejected(DEVNET.callCooperativeClose(CONSUMER.getAddress(), id, usdc(500_000), otherAmount), "InvalidSignature");
        assertThat(DEVNET.callCooperativeClose(CONSUMER.getAddress(), id, usdc(500_000), closeAuthorization(channel, 500_000)))
                .isEqualTo(CallOutcome.succeeded());
    }

    @Test
    void appliesTheSameSignatureRuleAsClaim() {
        OpenedChannel channel = openChannel(DEPOSIT, ONE_DAY);
        byte[] signature = closeAuthorization(channel, 500_000);
        byte[] lowV = signature.clone();
        lowV[64] = (byte) (signature[64] - 27);
        byte[] highS = signature.clone();
        BigInteger s = Numeric.toBigInt(Arrays.copyOfRange(signature, 32, 64));
        System.arraycopy(Numeric.toBytesPadded(Sign.CURVE_PARAMS.getN().subtract(s), 32), 0, highS, 32, 32);
        highS[64] = (byte) (signature[64] == 27 ? 28 : 27);

        assertThat(DEVNET.callCooperativeClose(CONSUMER.getAddress(), channel.channelId(), usdc(500_000), lowV))
                .isEqualTo(CallOutcome.succeeded());
        assertRejected(DEVNET.callCooperativeClose(CONSUMER.getAddress(), channel.channelId(), usdc(500_000), highS),
                "InvalidSignature");
        assertRejected(DEVNET.callCooperativeClose(CONSUMER.getAddress(), channel.channelId(), usdc(500_000),
                Arrays.copyOf(signature, 64)), "InvalidSignature");
    }

    @Test
    void rejectsAFinalAmountBelowWhatWasClaimedOrAboveTheDeposit() {
        OpenedChannel channel = openChannel(DEPOSIT, ONE_DAY);
        claim(channel, 300_000, 1);
        long aboveDeposit = DEPOSIT.longValueExact() + 1;
        assertReverts(() -> DEVNET.cooperativeClose(CONSUMER, channel.channelId(), usdc(299_999),
                closeAuthorization(channel, 299_999)), "InvalidAmount");
        assertReverts(() -> DEVNET.cooperativeClose(CONSUMER, channel.channelId(), usdc(aboveDeposit),
                closeAuthorization(channel, aboveDeposit)), "InvalidAmount");
    }

    @Test
    void paysTheProviderTakesTheFeeRefundsTheRestAndEmitsInOrder() {
        OpenedChannel channel = openChannel(DEPOSIT, ONE_DAY);
        claim(channel, 250_000, 1);
        BigInteger consumerBefore = balance(CONSUMER);
        BigInteger providerBefore = balance(PROVIDER);
        BigInteger feeBefore = balance(Devnet.FEE_RECIPIENT);
        BigInteger contractBefore = balance(DEVNET.channelAddress());

        TransactionReceipt receipt = DEVNET.cooperativeClose(CONSUMER, channel.channelId(), usdc(750_001),
                closeAuthorization(channel, 750_001));

        // payout 500001, fee 500001 * 200 / 10000 = 10000.02, refund 10000000 - 750001
        assertThat(DEVNET.eventNames(receipt)).containsExactly("FeePaid", "ChannelClaimed", "ChannelClosed");
        assertThat(Devnet.amountOf(DEVNET.logs(receipt, "FeePaid").getFirst())).isEqualTo(usdc(10_000));
        assertThat(Devnet.amountOf(DEVNET.logs(receipt, "ChannelClaimed").getFirst())).isEqualTo(usdc(500_001));
        assertThat(Devnet.amountOf(DEVNET.logs(receipt, "ChannelClosed").getFirst())).isEqualTo(usdc(9_249_999));
        assertThat(balance(PROVIDER)).isEqualTo(providerBefore.add(usdc(490_001)));
        assertThat(balance(Devnet.FEE_RECIPIENT)).isEqualTo(feeBefore.add(usdc(10_000)));
        assertThat(balance(CONSUMER)).isEqualTo(consumerBefore.add(usdc(9_249_999)));
        assertThat(balance(DEVNET.channelAddress())).isEqualTo(contractBefore.subtract(usdc(9_750_000)));
        assertThat(DEVNET.getChannel(channel.channelId()).exists()).isFalse();
        assertThat(DEVNET.getBalance(channel.channelId())).isZero();
    }

    @Test
    void aFinalAmountEqualToTheClaimedAmountOnlyRefunds() {
        OpenedChannel channel = openChannel(DEPOSIT, ONE_DAY);
        claim(channel, 250_000, 1);
        BigInteger consumerBefore = balance(CONSUMER);
        BigInteger providerBefore = balance(PROVIDER);

        TransactionReceipt receipt = DEVNET.cooperativeClose(CONSUMER, channel.channelId(), usdc(250_000),
                closeAuthorization(channel, 250_000));

        assertThat(DEVNET.eventNames(receipt)).containsExactly("ChannelClosed");
        assertThat(balance(CONSUMER)).isEqualTo(consumerBefore.add(usdc(9_750_000)));
        assertThat(balance(PROVIDER)).isEqualTo(providerBefore);
    }

    @Test
    void aFinalAmountOfTheWholeDepositRefundsNothing() {
        OpenedChannel channel = openChannel(DEPOSIT, ONE_DAY);
        BigInteger consumerBefore = balance(CONSUMER);
        BigInteger providerBefore = balance(PROVIDER);

        TransactionReceipt receipt = DEVNET.cooperativeClose(CONSUMER, channel.channelId(), DEPOSIT,
                DEVNET.signCloseAuthorization(PROVIDER, channel.channelId(), DEPOSIT));

        assertThat(Devnet.amountOf(DEVNET.logs(receipt, "ChannelClosed").getFirst())).isZero();
        assertThat(balance(CONSUMER)).isEqualTo(consumerBefore);
        assertThat(balance(PROVIDER)).isEqualTo(providerBefore.add(usdc(9_800_000)));
    }

    @Test
    void worksAfterExpiryToo() {
        OpenedChannel channel = openChannel(DEPOSIT, 60);
        passTime(120);
        TransactionReceipt receipt = DEVNET.cooperativeClose(CONSUMER, channel.channelId(), usdc(100_000),
                closeAuthorization(channel, 100_000));
        assertThat(DEVNET.eventNames(receipt)).containsExactly("FeePaid", "ChannelClaimed", "ChannelClosed");
    }

    @Test
    void leavesNothingToClaimAfterwards() {
        OpenedChannel channel = openChannel(DEPOSIT, ONE_DAY);
        DEVNET.cooperativeClose(CONSUMER, channel.channelId(), usdc(100_000), closeAuthorization(channel, 100_000));
        assertRejected(DEVNET.callClaim(PROVIDER.getAddress(), channel.channelId(), usdc(200_000), BigInteger.ONE,
                voucher(channel, 200_000, 1)), "ChannelNotFound");
    }
}
