package io.chanledger.chain.contract;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;

import io.chanledger.testsupport.Devnet;
import io.chanledger.testsupport.OpenedChannel;
import org.junit.jupiter.api.Test;
import org.web3j.protocol.core.methods.response.TransactionReceipt;

class ClaimTest extends ContractTestSupport {

    @Test
    void onlyTheProviderMayClaim() {
        OpenedChannel channel = openChannel(DEPOSIT, ONE_DAY);
        byte[] signature = voucher(channel, 100_000, 1);
        assertReverts(() -> DEVNET.claim(STRANGER, channel.channelId(), usdc(100_000), BigInteger.ONE, signature),
                "NotProvider");
        assertReverts(() -> DEVNET.claim(CONSUMER, channel.channelId(), usdc(100_000), BigInteger.ONE, signature),
                "NotProvider");
    }

    @Test
    void rejectsAnUnknownChannel() {
        String unknown = "0x" + "11".repeat(32);
        byte[] signature = DEVNET.signVoucher(CONSUMER, unknown, usdc(1), BigInteger.ONE);
        assertReverts(() -> DEVNET.claim(PROVIDER, unknown, usdc(1), BigInteger.ONE, signature), "ChannelNotFound");
    }

    @Test
    void rejectsAnAmountAboveTheDeposit() {
        OpenedChannel channel = openChannel(DEPOSIT, ONE_DAY);
        long tooMuch = DEPOSIT.longValueExact() + 1;
        assertReverts(() -> claim(channel, tooMuch, 1), "InvalidAmount");
    }

    @Test
    void acceptsExactlyTheDeposit() {
        OpenedChannel channel = openChannel(DEPOSIT, ONE_DAY);
        claim(channel, DEPOSIT.longValueExact(), 1);
        assertThat(DEVNET.getBalance(channel.channelId())).isZero();
    }

    @Test
    void rejectsAnAmountNotAboveWhatWasClaimed() {
        OpenedChannel channel = openChannel(DEPOSIT, ONE_DAY);
        assertReverts(() -> claim(channel, 0, 1), "InvalidAmount");
        claim(channel, 300_000, 1);
        assertReverts(() -> claim(channel, 300_000, 2), "InvalidAmount");
        assertReverts(() -> claim(channel, 299_999, 3), "InvalidAmount");
    }

    @Test
    void rejectsAVoucherSignedByAStranger() {
        OpenedChannel channel = openChannel(DEPOSIT, ONE_DAY);
        byte[] signature = DEVNET.signVoucher(STRANGER, channel.channelId(), usdc(100_000), BigInteger.ONE);
        assertReverts(() -> DEVNET.claim(PROVIDER, channel.channelId(), usdc(100_000), BigInteger.ONE, signature),
                "InvalidSignature");
    }

    @Test
    void rejectsAVoucherTheProviderSignedItself() {
        OpenedChannel channel = openChannel(DEPOSIT, ONE_DAY);
        byte[] signature = DEVNET.signVoucher(PROVIDER, channel.channelId(), usdc(100_000), BigInteger.ONE);
        assertReverts(() -> DEVNET.claim(PROVIDER, channel.channelId(), usdc(100_000), BigInteger.ONE, signature),
                "InvalidSignature");
    }

    @Test
    void rejectsAVoucherSignedForAnotherChannelOrAmountOrNonce() {
        OpenedChannel channel = openChannel(DEPOSIT, ONE_DAY);
        OpenedChannel other = openChannel(DEPOSIT, ONE_DAY);
        byte[] forOther = voucher(other, 100_000, 1);
        byte[] signature = voucher(channel, 100_000, 1);
        assertReverts(() -> DEVNET.claim(PROVIDER, channel.channelId(), usdc(100_000), BigInteger.ONE, forOther),
                "InvalidSignature");
        assertReverts(() -> DEVNET.claim(PROVIDER, channel.channelId(), usdc(100_001), BigInteger.ONE, signature),
                "InvalidSignature");
        assertReverts(() -> DEVNET.claim(PROVIDER, channel.channelId(), usdc(100_000), BigInteger.TWO, signature),
                "InvalidSignature");
    }

    @Test
    void doesNotCheckTheNonce() {
        OpenedChannel channel = openChannel(DEPOSIT, ONE_DAY);
        claim(channel, 100_000, 7);
        claim(channel, 200_000, 3);
        claim(channel, 300_000, 0);
        assertThat(DEVNET.getChannel(channel.channelId()).claimed()).isEqualTo(usdc(300_000));
    }

    @Test
    void stillWorksAfterExpiryUntilTheChannelIsClosed() {
        OpenedChannel channel = openChannel(DEPOSIT, 3_600);
        passTime(2 * 3_600);
        assertThat(DEVNET.latestBlockTimestamp()).isGreaterThan(channel.expiry());
        claim(channel, 400_000, 1);
        assertThat(DEVNET.getChannel(channel.channelId()).claimed()).isEqualTo(usdc(400_000));
    }

    @Test
    void paysThePayoutMinusTheFeeAndEmitsFeePaidThenChannelClaimed() {
        OpenedChannel channel = openChannel(DEPOSIT, ONE_DAY);
        BigInteger providerBefore = balance(PROVIDER);
        BigInteger feeBefore = balance(Devnet.FEE_RECIPIENT);
        BigInteger contractBefore = balance(DEVNET.channelAddress());

        TransactionReceipt receipt = DEVNET.claim(PROVIDER, channel.channelId(), usdc(750_000), BigInteger.ONE,
                voucher(channel, 750_000, 1));

        // 2 % of 750000 is 15000
        assertThat(DEVNET.eventNames(receipt)).containsExactly("FeePaid", "ChannelClaimed");
        assertThat(Devnet.amountOf(DEVNET.logs(receipt, "FeePaid").getFirst())).isEqualTo(usdc(15_000));
        assertThat(Devnet.topicAddress(DEVNET.logs(receipt, "FeePaid").getFirst(), 2)).isEqualTo(Devnet.FEE_RECIPIENT);
        assertThat(Devnet.amountOf(DEVNET.logs(receipt, "ChannelClaimed").getFirst())).isEqualTo(usdc(750_000));
        assertThat(Devnet.topicAddress(DEVNET.logs(receipt, "ChannelClaimed").getFirst(), 2))
                .isEqualTo(PROVIDER.getAddress());
        assertThat(balance(PROVIDER)).isEqualTo(providerBefore.add(usdc(735_000)));
        assertThat(balance(Devnet.FEE_RECIPIENT)).isEqualTo(feeBefore.add(usdc(15_000)));
        assertThat(balance(DEVNET.channelAddress())).isEqualTo(contractBefore.subtract(usdc(750_000)));
        assertThat(DEVNET.getChannel(channel.channelId()).claimed()).isEqualTo(usdc(750_000));
        assertThat(DEVNET.getBalance(channel.channelId())).isEqualTo(usdc(9_250_000));
    }

    @Test
    void roundsTheFeeDown() {
        OpenedChannel channel = openChannel(DEPOSIT, ONE_DAY);
        BigInteger providerBefore = balance(PROVIDER);
        BigInteger feeBefore = balance(Devnet.FEE_RECIPIENT);

        // 12345 * 200 / 10000 = 246.9
        TransactionReceipt receipt = DEVNET.claim(PROVIDER, channel.channelId(), usdc(12_345), BigInteger.ONE,
                voucher(channel, 12_345, 1));

        assertThat(Devnet.amountOf(DEVNET.logs(receipt, "FeePaid").getFirst())).isEqualTo(usdc(246));
        assertThat(balance(Devnet.FEE_RECIPIENT)).isEqualTo(feeBefore.add(usdc(246)));
        assertThat(balance(PROVIDER)).isEqualTo(providerBefore.add(usdc(12_099)));
    }

    @Test
    void emitsNoFeePaidWhenTheFeeRoundsToZero() {
        OpenedChannel channel = openChannel(DEPOSIT, ONE_DAY);
        BigInteger providerBefore = balance(PROVIDER);
        BigInteger feeBefore = balance(Devnet.FEE_RECIPIENT);

        // 49 * 200 / 10000 = 0.98
        TransactionReceipt receipt = DEVNET.claim(PROVIDER, channel.channelId(), usdc(49), BigInteger.ONE,
                voucher(channel, 49, 1));

        assertThat(DEVNET.eventNames(receipt)).containsExactly("ChannelClaimed");
        assertThat(balance(PROVIDER)).isEqualTo(providerBefore.add(usdc(49)));
        assertThat(balance(Devnet.FEE_RECIPIENT)).isEqualTo(feeBefore);
    }

    @Test
    void successiveClaimsPayOnlyTheIncrement() {
        OpenedChannel channel = openChannel(DEPOSIT, ONE_DAY);
        claim(channel, 100_000, 1);
        BigInteger providerBefore = balance(PROVIDER);
        BigInteger feeBefore = balance(Devnet.FEE_RECIPIENT);

        TransactionReceipt receipt = DEVNET.claim(PROVIDER, channel.channelId(), usdc(250_001), BigInteger.TWO,
                voucher(channel, 250_001, 2));

        // increment 150001; fee 150001 * 200 / 10000 = 3000.02
        assertThat(Devnet.amountOf(DEVNET.logs(receipt, "ChannelClaimed").getFirst())).isEqualTo(usdc(150_001));
        assertThat(Devnet.amountOf(DEVNET.logs(receipt, "FeePaid").getFirst())).isEqualTo(usdc(3_000));
        assertThat(balance(PROVIDER)).isEqualTo(providerBefore.add(usdc(147_001)));
        assertThat(balance(Devnet.FEE_RECIPIENT)).isEqualTo(feeBefore.add(usdc(3_000)));
        assertThat(DEVNET.getBalance(channel.channelId())).isEqualTo(DEPOSIT.subtract(usdc(250_001)));
    }
}
