package io.chanledger.chain.contract;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;

import io.chanledger.testsupport.CallOutcome;
import io.chanledger.testsupport.ChannelState;
import io.chanledger.testsupport.Devnet;
import io.chanledger.testsupport.OpenedChannel;
import org.junit.jupiter.api.Test;
import org.web3j.protocol.core.methods.response.TransactionReceipt;

class CloseTest extends ContractTestSupport {

    private static final ChannelState DELETED = new ChannelState("0x0000000000000000000000000000000000000000",
            "0x0000000000000000000000000000000000000000", BigInteger.ZERO, BigInteger.ZERO, BigInteger.ZERO);

    @Test
    void onlyTheConsumerMayClose() {
        OpenedChannel channel = openChannel(DEPOSIT, 0);
        assertReverts(() -> DEVNET.close(PROVIDER, channel.channelId()), "NotConsumer");
        assertReverts(() -> DEVNET.close(STRANGER, channel.channelId()), "NotConsumer");
    }

    @Test
    void cannotCloseBeforeExpiry() {
        OpenedChannel channel = openChannel(DEPOSIT, ONE_DAY);
        assertReverts(() -> DEVNET.close(CONSUMER, channel.channelId()), "NotExpired");
        // the block the close would go into is stamped a second before the expiry; a block mined at
        // that time first would leave the close's own block to the wall clock, past the expiry once
        // a second has turned in between
        DEVNET.setNextBlockTimestamp(channel.expiry().longValueExact() - 1);
        assertReverts(() -> DEVNET.close(CONSUMER, channel.channelId()), "NotExpired");
        DEVNET.mine(); // the timestamp set is used by a block of its own, not by the next test's
    }

    @Test
    void closesInTheBlockWhoseTimestampEqualsTheExpiry() {
        OpenedChannel channel = openChannel(DEPOSIT, ONE_DAY);
        DEVNET.setNextBlockTimestamp(channel.expiry().longValueExact());
        TransactionReceipt receipt = DEVNET.close(CONSUMER, channel.channelId());
        assertThat(DEVNET.eventNames(receipt)).containsExactly("ChannelClosed");
    }

    @Test
    void refundsWhatWasNotClaimedAndDeletesTheChannel() {
        OpenedChannel channel = openChannel(DEPOSIT, ONE_DAY);
        claim(channel, 300_000, 1);
        passTime(ONE_DAY);
        BigInteger consumerBefore = balance(CONSUMER);
        BigInteger providerBefore = balance(PROVIDER);
        BigInteger contractBefore = balance(DEVNET.channelAddress());

        TransactionReceipt receipt = DEVNET.close(CONSUMER, channel.channelId());

        assertThat(DEVNET.eventNames(receipt)).containsExactly("ChannelClosed");
        assertThat(Devnet.amountOf(DEVNET.logs(receipt, "ChannelClosed").getFirst())).isEqualTo(usdc(9_700_000));
        assertThat(Devnet.topicAddress(DEVNET.logs(receipt, "ChannelClosed").getFirst(), 2)).isEqualTo(CONSUMER.getAddress());
        assertThat(balance(CONSUMER)).isEqualTo(consumerBefore.add(usdc(9_700_000)));
        assertThat(balance(PROVIDER)).isEqualTo(providerBefore);
        assertThat(balance(DEVNET.channelAddress())).isEqualTo(contractBefore.subtract(usdc(9_700_000)));
        assertThat(DEVNET.getChannel(channel.channelId())).isEqualTo(DELETED);
        assertThat(DEVNET.getBalance(channel.channelId())).isZero();
    }

    @Test
    void refundsTheWholeDepositWhenNothingWasClaimed() {
        OpenedChannel channel = openChannel(DEPOSIT, 60);
        passTime(60);
        BigInteger consumerBefore = balance(CONSUMER);
        TransactionReceipt receipt = DEVNET.close(CONSUMER, channel.channelId());
        assertThat(Devnet.amountOf(DEVNET.logs(receipt, "ChannelClosed").getFirst())).isEqualTo(DEPOSIT);
        assertThat(balance(CONSUMER)).isEqualTo(consumerBefore.add(DEPOSIT));
    }

    @Test
    void aClosedChannelCannotBeClosedAgain() {
        OpenedChannel channel = openChannel(DEPOSIT, 0);
        DEVNET.close(CONSUMER, channel.channelId());
        assertReverts(() -> DEVNET.close(CONSUMER, channel.channelId()), "ChannelNotFound");
    }

    @Test
    void providerLosesAnUnclaimedVoucherOnceTheConsumerClosesAfterExpiry() {
        OpenedChannel channel = openChannel(DEPOSIT, 3_600);
        byte[] signature = voucher(channel, 500_000, 1);
        assertThat(DEVNET.callClaim(PROVIDER.getAddress(), channel.channelId(), usdc(500_000), BigInteger.ONE, signature))
                .isEqualTo(CallOutcome.succeeded());
        passTime(3_600);
        BigInteger consumerBefore = balance(CONSUMER);

        DEVNET.close(CONSUMER, channel.channelId());

        assertThat(balance(CONSUMER)).isEqualTo(consumerBefore.add(DEPOSIT));
        assertRejected(DEVNET.callClaim(PROVIDER.getAddress(), channel.channelId(), usdc(500_000), BigInteger.ONE,
                signature), "ChannelNotFound");
        assertReverts(() -> DEVNET.claim(PROVIDER, channel.channelId(), usdc(500_000), BigInteger.ONE, signature),
                "ChannelNotFound");
    }
}
