package io.chanledger.chain.tx;

import static org.assertj.core.api.Assertions.assertThat;

import io.chanledger.chain.abi.ChannelContract;
import io.chanledger.testsupport.Devnet;
import io.chanledger.testsupport.DevnetAccounts;
import io.chanledger.testsupport.RpcProxy;
import io.chanledger.chain.rpc.EthApi;
import io.chanledger.chain.rpc.JsonRpcClient;
import io.chanledger.chain.rpc.RetryPolicy;
import java.math.BigInteger;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.web3j.abi.FunctionEncoder;
import org.web3j.abi.datatypes.Address;
import org.web3j.abi.datatypes.DynamicBytes;
import org.web3j.abi.datatypes.Function;
import org.web3j.abi.datatypes.generated.Bytes32;
import org.web3j.abi.datatypes.generated.Uint256;
import org.web3j.crypto.Credentials;
import org.web3j.protocol.core.methods.response.Transaction;

class TransactionSenderTest {

    private static final Devnet DEVNET = Devnet.shared();
    private static final String RECIPIENT = DevnetAccounts.labelled("sender-test-recipient").getAddress();
    private static final BigInteger ONE_USDC = BigInteger.valueOf(1_000_000);
    private static final BigInteger FEE_CAP = BigInteger.valueOf(50_000_000_000L);

    private Credentials account;
    private EthApi eth;
    private TransactionSender sender;

    @BeforeEach
    void freshAccount() {
        account = DevnetAccounts.labelled("sender-test-" + UUID.randomUUID());
        DEVNET.setBalance(account.getAddress(), Devnet.GAS_MONEY);
        DEVNET.mint(account.getAddress(), ONE_USDC.multiply(BigInteger.valueOf(100)));
        eth = new EthApi(new JsonRpcClient(DEVNET.rpcUrl(), Duration.ofSeconds(5), RetryPolicy.defaults()));
        sender = sender(eth, Duration.ofSeconds(20));
    }

    private TransactionSender sender(EthApi api, Duration receiptTimeout) {
        // a cap, as on a congested chain, keeps the test accounts' gas money ample whatever anvil suggests
        return new TransactionSender(api, account, DEVNET.chainId(),
                new SenderSettings(receiptTimeout, Duration.ofMillis(50), BigInteger.ZERO, FEE_CAP, 20),
                RevertReasons.channelContract());
    }

    private static TransactionRequest transfer(BigInteger amount) {
        return TransactionRequest.call(DEVNET.usdcAddress(), FunctionEncoder.encode(new Function("transfer",
                List.of(new Address(RECIPIENT), new Uint256(amount)), List.of())));
    }

    private static TransactionRequest claimOnUnknownChannel() {
        return TransactionRequest.call(DEVNET.channelAddress(), FunctionEncoder.encode(new Function("claim",
                List.of(new Bytes32(new byte[32]), new Uint256(1), new Uint256(1), new DynamicBytes(new byte[65])),
                List.of())));
    }

    private BigInteger pendingNonce() {
        return eth.transactionCount(account.getAddress(), "pending");
    }

    @Test
    void sendsAnEip1559TransactionAndReportsItMined() {
        BigInteger before = DEVNET.balanceOf(RECIPIENT);

        SendResult result = sender.send(transfer(ONE_USDC));

        assertThat(result).isInstanceOfSatisfying(SendResult.Mined.class, mined -> {
            assertThat(mined.nonce()).isZero();
            assertThat(mined.gasUsed()).isPositive();
            Transaction sent = eth.transaction(mined.txHash()).orElseThrow();
            assertThat(sent.getType()).isEqualTo("0x2");
            assertThat(sent.getMaxFeePerGas()).isGreaterThanOrEqualTo(sent.getMaxPriorityFeePerGas());
            assertThat(sent.getFrom()).isEqualToIgnoringCase(account.getAddress());
        });
        assertThat(DEVNET.balanceOf(RECIPIENT)).isEqualTo(before.add(ONE_USDC));
    }

    @Test
    void refusesACallThatWouldRevertWithoutBroadcastingIt() {
        SendResult result = sender.send(claimOnUnknownChannel());

        assertThat(result).isEqualTo(new SendResult.Refused("the call would revert", "ChannelNotFound"));
        assertThat(pendingNonce()).isZero();
    }

    @Test
    void reportsAMinedRevertWithTheReasonFromReplayingTheCall() {
        SendResult result = sender.send(claimOnUnknownChannel().withGasLimit(BigInteger.valueOf(200_000)));

        assertThat(result).isInstanceOfSatisfying(SendResult.Reverted.class, reverted -> {
            assertThat(reverted.revertReason()).isEqualTo("ChannelNotFound");
            assertThat(reverted.nonce()).isZero();
        });
        assertThat(pendingNonce()).isOne();
    }

    @Test
    void readsTheNonceAgainWhenAnotherClientUsedTheAccount() {
        assertThat(sender.send(transfer(BigInteger.ONE))).isInstanceOf(SendResult.Mined.class);
        DEVNET.rpc().send(account, DEVNET.usdcAddress(), transfer(BigInteger.TWO).data());

        SendResult result = sender.send(transfer(BigInteger.TEN));

        assertThat(result).isInstanceOfSatisfying(SendResult.Mined.class,
                mined -> assertThat(mined.nonce()).isEqualTo(BigInteger.TWO));
    }

    @Test
    void aTransactionWithoutReceiptIsReportedNotMinedAndNotPaid() {
        TransactionSender impatient = sender(eth, Duration.ofMillis(300));
        BigInteger before = DEVNET.balanceOf(RECIPIENT);
        SendResult result;
        DEVNET.rpc().setAutomine(false);
        try {
            result = impatient.send(transfer(ONE_USDC));
            assertThat(DEVNET.balanceOf(RECIPIENT)).isEqualTo(before);
            DEVNET.mine();
        } finally {
            DEVNET.rpc().setAutomine(true);
        }

        assertThat(result).isInstanceOf(SendResult.NotMined.class);
        String hash = ((SendResult.NotMined) result).txHash();
        assertThat(eth.receipt(hash)).hasValueSatisfying(receipt -> assertThat(receipt.isStatusOK()).isTrue());
        assertThat(DEVNET.balanceOf(RECIPIENT)).isEqualTo(before.add(ONE_USDC));
    }

    @Test
    void neverSendsACallTwiceThroughAFlakyEndpoint() {
        BigInteger before = DEVNET.balanceOf(RECIPIENT);
        try (RpcProxy proxy = RpcProxy.failingEveryOther(DEVNET.rpcUrl(), Duration.ofMillis(1_500))) {
            RetryPolicy quick = new RetryPolicy(8, Duration.ofMillis(10), Duration.ofMillis(50), 2.0, 0.5);
            EthApi flaky = new EthApi(new JsonRpcClient(proxy.url(), Duration.ofMillis(500), quick));
            TransactionSender flakySender = sender(flaky, Duration.ofSeconds(20));
            List<SendResult> results = new java.util.ArrayList<>();
            for (int i = 0; i < 6; i++) {
                results.add(flakySender.send(transfer(ONE_USDC)));
            }
            assertThat(proxy.faults()).isPositive();
            assertThat(results).allMatch(SendResult.Mined.class::isInstance);
        }
        assertThat(DEVNET.balanceOf(RECIPIENT)).isEqualTo(before.add(ONE_USDC.multiply(BigInteger.valueOf(6))));
        assertThat(pendingNonce()).isEqualTo(BigInteger.valueOf(6));
    }

    @Test
    void simulatesCallsAndNamesTheirReverts() {
        CallResult balance = sender.call(account.getAddress(), DEVNET.usdcAddress(), FunctionEncoder.encode(
                new Function("balanceOf", List.of(new Address(account.getAddress())), List.of())), BigInteger.ZERO);
        CallResult claim = sender.simulate(claimOnUnknownChannel());

        assertThat(balance.success()).isTrue();
        assertThat(new BigInteger(balance.returnData().substring(2), 16)).isEqualTo(ONE_USDC.multiply(BigInteger.valueOf(100)));
        assertThat(claim.success()).isFalse();
        assertThat(claim.revertReason()).isEqualTo("ChannelNotFound");
        assertThat(claim.revertData()).isEqualTo(ChannelContract.selector("ChannelNotFound()"));
    }
}
