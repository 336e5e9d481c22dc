package io.chanledger.chain.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;

import io.chanledger.testsupport.CallOutcome;
import io.chanledger.testsupport.ContractRevertedException;
import io.chanledger.testsupport.Devnet;
import io.chanledger.testsupport.DevnetAccounts;
import io.chanledger.testsupport.OpenedChannel;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.web3j.crypto.Credentials;

/**
 * The shared devnet, rolled back to a snapshot after every test so each test sees the chain as
 * deployment left it (time included).
 */
abstract class ContractTestSupport {

    static final Devnet DEVNET = Devnet.shared();
    static final Credentials CONSUMER = DevnetAccounts.anvil(1);
    static final Credentials PROVIDER = DevnetAccounts.anvil(2);
    static final Credentials STRANGER = DevnetAccounts.anvil(3);
    static final BigInteger DEPOSIT = usdc(10_000_000);
    static final long ONE_DAY = 86_400;

    private String snapshot;

    @BeforeEach
    void takeSnapshot() {
        snapshot = DEVNET.snapshot();
    }

    @AfterEach
    void restoreSnapshot() {
        DEVNET.revertTo(snapshot);
    }

    static BigInteger usdc(long baseUnits) {
        return BigInteger.valueOf(baseUnits);
    }

    static OpenedChannel openChannel(BigInteger deposit, long durationSeconds) {
        return DEVNET.fundAndOpen(CONSUMER, PROVIDER.getAddress(), deposit, durationSeconds);
    }

    static byte[] voucher(OpenedChannel channel, long amount, long nonce) {
        return DEVNET.signVoucher(CONSUMER, channel.channelId(), usdc(amount), BigInteger.valueOf(nonce));
    }

    static byte[] closeAuthorization(OpenedChannel channel, long finalAmount) {
        return DEVNET.signCloseAuthorization(PROVIDER, channel.channelId(), usdc(finalAmount));
    }

    static void claim(OpenedChannel channel, long amount, long nonce) {
        DEVNET.claim(PROVIDER, channel.channelId(), usdc(amount), BigInteger.valueOf(nonce), voucher(channel, amount, nonce));
    }

    static void passTime(long seconds) {
        DEVNET.increaseTime(seconds);
        DEVNET.mine();
    }

    static BigInteger balance(Credentials account) {
        return DEVNET.balanceOf(account.getAddress());
    }

    static BigInteger balance(String address) {
        return DEVNET.balanceOf(address);
    }

    static void assertReverts(ThrowingCallable transaction, String error) {
        assertThatThrownBy(transaction).isInstanceOfSatisfying(ContractRevertedException.class,
                e -> assertThat(e.error()).isEqualTo(error));
    }

    static void assertRejected(CallOutcome outcome, String error) {
        assertThat(outcome).isEqualTo(CallOutcome.reverted(error));
    }
}
