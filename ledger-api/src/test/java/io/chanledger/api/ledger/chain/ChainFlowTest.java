package io.chanledger.api.ledger.chain;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.chanledger.api.support.LedgerIntegrationTest;
import io.chanledger.testsupport.ChannelState;
import io.chanledger.testsupport.Devnet;
import io.chanledger.testsupport.DevnetAccounts;
import io.chanledger.testsupport.OpenedChannel;
import java.math.BigInteger;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.web3j.crypto.Credentials;
import org.web3j.utils.Numeric;

/**
 * Channels lived on the shared devnet while the application follows it: after every step, the
 * ledger's figures equal the contract's {@code getChannel} and the token balances, to the base unit.
 */
class ChainFlowTest extends LedgerIntegrationTest {

    private static final Credentials CONSUMER = DevnetAccounts.anvil(7);
    private static final Credentials PROVIDER = DevnetAccounts.anvil(8);
    private static final BigInteger DEPOSIT = BigInteger.valueOf(1_000_000);
    private static final BigInteger FEE_BPS = Devnet.FEE_BPS;

    private LedgerView ledger;
    private Balances start;

    /** USDC of everyone the channel moves money between. */
    private record Balances(BigInteger consumer, BigInteger provider, BigInteger fees, BigInteger contract) {
        static Balances now() {
            Devnet devnet = devnet();
            return new Balances(devnet.balanceOf(CONSUMER.getAddress()), devnet.balanceOf(PROVIDER.getAddress()),
                    devnet.balanceOf(Devnet.FEE_RECIPIENT), devnet.balanceOf(devnet.channelAddress()));
        }
    }

    @BeforeEach
    void setUp() {
        ledger = new LedgerView(baseUrl());
        devnet().approve(CONSUMER, devnet().channelAddress(), DEPOSIT);
        start = Balances.now();
    }

    private static BigInteger fee(BigInteger payout) {
        return payout.multiply(FEE_BPS).divide(BigInteger.valueOf(10_000));
    }

    private String voucherSignature(String channelId, long amount, long nonce) {
        return Numeric.toHexString(devnet().signVoucher(CONSUMER, channelId, BigInteger.valueOf(amount),
                BigInteger.valueOf(nonce)));
    }

    /**
     * The ledger's figures against the chain: the deposit and claimed total against getChannel
     * (while the channel exists), the fees against the fee recipient's balance, the provider's net
     * and the consumer's refund against theirs, and what the contract holds against deposit minus
     * claimed.
     */
    private void assertLedgerEqualsChain(String channelId, JsonNode state) {
        Balances now = Balances.now();
        BigInteger claimed = LedgerView.amount(state, "claimed");
        BigInteger fees = LedgerView.amount(state, "feesPaid");
        BigInteger deposit = LedgerView.amount(state, "deposit");
        ChannelState onChain = devnet().getChannel(channelId);
        if (!"closed".equals(state.path("status").asText())) {
            assertThat(onChain.exists()).isTrue();
            assertThat(deposit).isEqualTo(onChain.deposit());
            assertThat(claimed).isEqualTo(onChain.claimed());
            assertThat(deposit.subtract(claimed)).isEqualTo(devnet().getBalance(channelId));
            assertThat(now.contract().subtract(start.contract())).isEqualTo(deposit.subtract(claimed));
            assertThat(now.consumer().subtract(start.consumer())).isEqualTo(deposit.negate());
        } else {
            assertThat(onChain.exists()).isFalse();
            BigInteger refund = LedgerView.amount(state, "refund");
            assertThat(refund).isEqualTo(deposit.subtract(claimed));
            assertThat(now.contract()).isEqualTo(start.contract());
            assertThat(now.consumer().subtract(start.consumer())).isEqualTo(refund.subtract(deposit));
        }
        assertThat(now.fees().subtract(start.fees())).isEqualTo(fees);
        assertThat(now.provider().subtract(start.provider())).isEqualTo(claimed.subtract(fees));
    }

    @Test
    void openVouchersClaimAndCooperativeCloseKeepTheLedgerEqualToTheChain() {
        OpenedChannel channel = devnet().open(CONSUMER, PROVIDER.getAddress(), DEPOSIT, 86_400);
        String id = channel.channelId();

        JsonNode opened = ledger.awaitStatus(id, "open");
        assertThat(opened.path("provisional").asBoolean()).isFalse();
        assertThat(opened.path("expiryEpochSeconds").asLong()).isEqualTo(channel.expiry().longValueExact());
        assertLedgerEqualsChain(id, opened);

        long[] amounts = {100_000, 250_000, 400_000};
        for (int i = 0; i < amounts.length; i++) {
            assertThat(ledger.postVoucher(id, BigInteger.valueOf(amounts[i]), BigInteger.valueOf(i + 1),
                    voucherSignature(id, amounts[i], i + 1)).status()).isEqualTo(200);
        }
        JsonNode vouched = ledger.channel(id);
        assertThat(LedgerView.amount(vouched, "claimable")).isEqualTo(BigInteger.valueOf(400_000));
        assertLedgerEqualsChain(id, vouched);

        devnet().claim(PROVIDER, id, BigInteger.valueOf(400_000), BigInteger.valueOf(3),
                Numeric.hexStringToByteArray(voucherSignature(id, 400_000, 3)));
        JsonNode claimed = ledger.awaitChannel(id, "claimed 400000",
                s -> BigInteger.valueOf(400_000).equals(LedgerView.amount(s, "claimed")));
        assertThat(LedgerView.amount(claimed, "feesPaid")).isEqualTo(fee(BigInteger.valueOf(400_000)));
        assertThat(LedgerView.amount(claimed, "claimable")).isZero();
        assertLedgerEqualsChain(id, claimed);

        BigInteger finalAmount = BigInteger.valueOf(600_000);
        devnet().cooperativeClose(CONSUMER, id, finalAmount, devnet().signCloseAuthorization(PROVIDER, id, finalAmount));
        JsonNode closed = ledger.awaitStatus(id, "closed");
        assertThat(closed.path("closeKind").asText()).isEqualTo("cooperative");
        assertThat(LedgerView.amount(closed, "claimed")).isEqualTo(finalAmount);
        assertThat(LedgerView.amount(closed, "feesPaid"))
                .isEqualTo(fee(BigInteger.valueOf(400_000)).add(fee(BigInteger.valueOf(200_000))));
        assertThat(LedgerView.amount(closed, "refund")).isEqualTo(DEPOSIT.subtract(finalAmount));
        assertLedgerEqualsChain(id, closed);
        assertThat(ledger.eventTypes(id)).containsExactly("ChannelOpened", "VoucherAccepted", "VoucherAccepted",
                "VoucherAccepted", "ChannelClaimed", "ChannelClaimed", "ChannelClosed");
    }

    @Test
    void expiryIsRecordedFromBlockTimeAndTheConsumerThenTakesBackTheRest() {
        OpenedChannel channel = devnet().open(CONSUMER, PROVIDER.getAddress(), DEPOSIT, 300);
        String id = channel.channelId();
        assertLedgerEqualsChain(id, ledger.awaitStatus(id, "open"));

        assertThat(ledger.postVoucher(id, BigInteger.valueOf(150_000), BigInteger.ONE,
                voucherSignature(id, 150_000, 1)).status()).isEqualTo(200);
        devnet().claim(PROVIDER, id, BigInteger.valueOf(150_000), BigInteger.ONE,
                Numeric.hexStringToByteArray(voucherSignature(id, 150_000, 1)));
        assertLedgerEqualsChain(id, ledger.awaitChannel(id, "claimed",
                s -> BigInteger.valueOf(150_000).equals(LedgerView.amount(s, "claimed"))));

        devnet().increaseTime(301);
        devnet().mine();
        JsonNode expired = ledger.awaitStatus(id, "expired");
        assertLedgerEqualsChain(id, expired);

        devnet().close(CONSUMER, id);
        JsonNode closed = ledger.awaitStatus(id, "closed");
        assertThat(closed.path("closeKind").asText()).isEqualTo("after_expiry");
        assertThat(LedgerView.amount(closed, "refund")).isEqualTo(BigInteger.valueOf(850_000));
        assertLedgerEqualsChain(id, closed);
        assertThat(ledger.eventTypes(id)).containsExactly("ChannelOpened", "VoucherAccepted", "ChannelClaimed",
                "ChannelExpired", "ChannelClosed");
    }

    @Test
    void aCooperativeCloseWithoutPayoutAfterExpiryIsToldApartByItsTransaction() {
        OpenedChannel channel = devnet().open(CONSUMER, PROVIDER.getAddress(), DEPOSIT, 60);
        String id = channel.channelId();
        ledger.awaitStatus(id, "open");
        devnet().increaseTime(61);
        devnet().mine();
        ledger.awaitStatus(id, "expired");

        devnet().cooperativeClose(CONSUMER, id, BigInteger.ZERO,
                devnet().signCloseAuthorization(PROVIDER, id, BigInteger.ZERO));

        JsonNode closed = ledger.awaitStatus(id, "closed");
        assertThat(closed.path("closeKind").asText()).isEqualTo("cooperative");
        assertThat(LedgerView.amount(closed, "refund")).isEqualTo(DEPOSIT);
        assertLedgerEqualsChain(id, closed);
        assertThat(ledger.eventTypes(id)).isEqualTo(List.of("ChannelOpened", "ChannelExpired", "ChannelClosed"));
    }
}
