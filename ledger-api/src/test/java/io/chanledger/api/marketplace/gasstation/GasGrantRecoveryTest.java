package io.chanledger.api.marketplace.gasstation;

import static io.chanledger.api.marketplace.gasstation.GasStationFixtures.FEE_CAP;
import static io.chanledger.api.marketplace.gasstation.GasStationFixtures.FIVE_USDC;
import static io.chanledger.api.marketplace.gasstation.GasStationFixtures.GRANT;
import static io.chanledger.api.marketplace.gasstation.GasStationFixtures.faucetWith;
import static io.chanledger.api.marketplace.gasstation.GasStationFixtures.nonce;
import static io.chanledger.api.marketplace.gasstation.GasStationFixtures.polBalance;
import static io.chanledger.api.marketplace.gasstation.GasStationFixtures.properties;
import static io.chanledger.api.marketplace.gasstation.GasStationFixtures.station;
import static io.chanledger.api.marketplace.gasstation.GasStationFixtures.walletWith;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.chanledger.api.support.LedgerIntegrationTest;
import io.chanledger.testsupport.Devnet;
import io.chanledger.chain.rpc.EthApi;
import io.chanledger.chain.rpc.JsonRpcClient;
import io.chanledger.chain.rpc.RetryPolicy;
import io.chanledger.chain.tx.RevertReasons;
import io.chanledger.chain.tx.SendResult;
import io.chanledger.chain.tx.SenderSettings;
import io.chanledger.chain.tx.TransactionRequest;
import io.chanledger.chain.tx.TransactionSender;
import io.chanledger.domain.gasgrant.RecordGasGrantBroadcast;
import io.chanledger.domain.gasgrant.ReserveGasGrant;
import io.chanledger.domain.gasgrant.StartGasGrantSend;
import io.chanledger.projections.gasgrant.GasGrantRow;
import io.chanledger.projections.gasgrant.GasGrantTable;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.web3j.crypto.Credentials;

/**
 * A process that died mid-grant leaves the attempt pending in the ledger; the next process (here
 * a station of the test's own, on its own faucet) settles it from the chain: by the recorded
 * hash, or by the faucet's nonce and a search of the blocks since the send started. That station
 * counts every attempt as abandoned at once; the shared context's own recovery leaves attempts
 * younger than its 30 seconds alone, so it never races the test's station for them.
 */
class GasGrantRecoveryTest extends LedgerIntegrationTest {

    private static final Duration DEADLINE = Duration.ofSeconds(30);

    @Autowired
    CommandGateway commands;

    @Autowired
    GasGrantTable table;

    private Devnet devnet;
    private Credentials faucet;
    private String wallet;
    private EnabledGasStation restarted;
    private String attempt;

    @BeforeEach
    void aFaucetAndAWalletOfTheirOwn() {
        devnet = devnet();
        faucet = faucetWith(devnet, Devnet.GAS_MONEY);
        wallet = walletWith(devnet, FIVE_USDC);
        restarted = station(devnet, devnet.rpcUrl(), faucet, properties(Duration.ofSeconds(5), Duration.ZERO),
                commands, table);
        attempt = UUID.randomUUID().toString();
    }

    /** Sends from the faucet as the dead process did, outside any station. */
    private SendResult.Mined transfer(String to) {
        EthApi eth = new EthApi(new JsonRpcClient(devnet.rpcUrl(), Duration.ofSeconds(5), RetryPolicy.defaults()));
        TransactionSender sender = new TransactionSender(eth, faucet, devnet.chainId(),
                new SenderSettings(Duration.ofSeconds(20), Duration.ofMillis(50), BigInteger.ZERO, FEE_CAP, 0),
                new RevertReasons(Map.of()));
        SendResult result = sender.send(new TransactionRequest(to, "0x", GRANT, BigInteger.valueOf(21_000)));
        assertThat(result).isInstanceOf(SendResult.Mined.class);
        return (SendResult.Mined) result;
    }

    private void sendStartedAt(long faucetNonce, long fromBlock) {
        commands.sendAndWait(new ReserveGasGrant(wallet, attempt, GRANT, Instant.now()));
        commands.sendAndWait(new StartGasGrantSend(wallet, attempt, faucet.getAddress(), faucetNonce, fromBlock));
    }

    private GasGrantRow settled() {
        await().atMost(DEADLINE).pollInterval(Duration.ofMillis(200)).until(() -> {
            restarted.recovery().resolve(wallet);
            return !table.find(wallet).orElseThrow().pending();
        });
        return table.find(wallet).orElseThrow();
    }

    @Test
    void aTransferMinedBeforeItsHashWasRecordedIsFoundAndTheGrantIsNotPaidAgain() {
        long block = devnet.web3j().ethBlockNumber().sendAsync().join().getBlockNumber().longValueExact();
        String txHash = transfer(wallet).txHash();
        sendStartedAt(0, block);

        GasGrantRow row = settled();

        assertThat(row.status()).isEqualTo(GasGrantRow.Status.GRANTED);
        assertThat(row.txHash()).isEqualTo(txHash);
        GasStationReply again = restarted.request(wallet);
        assertThat(again.body()).containsEntry("code", "already_granted").containsEntry("txHash", txHash);
        assertThat(nonce(devnet, faucet.getAddress())).isEqualTo(1);
        assertThat(polBalance(devnet, wallet)).isEqualTo(GRANT);
    }

    @Test
    void anAttemptThatDiedBeforeBroadcastingIsReleasedAndTheWalletIsPaidOnce() {
        long block = devnet.web3j().ethBlockNumber().sendAsync().join().getBlockNumber().longValueExact();
        sendStartedAt(0, block);

        GasGrantRow row = settled();

        assertThat(row.status()).isEqualTo(GasGrantRow.Status.FAILED);
        assertThat(row.failure()).isEqualTo("not_sent");
        GasStationReply retried = restarted.request(wallet);
        assertThat(retried.status().value()).as(retried.body().toString()).isEqualTo(200);
        assertThat(nonce(devnet, faucet.getAddress())).isEqualTo(1);
        assertThat(polBalance(devnet, wallet)).isEqualTo(GRANT);
    }

    @Test
    void anAttemptWhoseNonceWentToAnotherWalletSentNothingToThisOne() {
        long block = devnet.web3j().ethBlockNumber().sendAsync().join().getBlockNumber().longValueExact();
        String elsewhere = walletWith(devnet, BigInteger.ZERO);
        transfer(elsewhere);
        sendStartedAt(0, block);

        GasGrantRow row = settled();

        assertThat(row.status()).isEqualTo(GasGrantRow.Status.FAILED);
        assertThat(row.failure()).isEqualTo("not_sent");
        assertThat(polBalance(devnet, wallet)).isZero();
    }

    @Test
    void aRecordedTransferIsConfirmedByItsReceipt() {
        long block = devnet.web3j().ethBlockNumber().sendAsync().join().getBlockNumber().longValueExact();
        SendResult.Mined mined = transfer(wallet);
        sendStartedAt(0, block);
        commands.sendAndWait(new RecordGasGrantBroadcast(wallet, attempt, mined.txHash(), 0L));

        GasGrantRow row = settled();

        assertThat(row.status()).isEqualTo(GasGrantRow.Status.GRANTED);
        assertThat(row.txHash()).isEqualTo(mined.txHash());
        assertThat(row.blockNumber()).isEqualTo(mined.blockNumber());
    }

    @Test
    void aRecordedTransferTheNodeNeverSawWithItsNonceUnusedWasDropped() {
        long block = devnet.web3j().ethBlockNumber().sendAsync().join().getBlockNumber().longValueExact();
        sendStartedAt(0, block);
        commands.sendAndWait(new RecordGasGrantBroadcast(wallet, attempt, "0x" + "7e".repeat(32), 0L));

        GasGrantRow row = settled();

        assertThat(row.status()).isEqualTo(GasGrantRow.Status.FAILED);
        assertThat(row.failure()).isEqualTo("dropped");
    }

    @Test
    void aRecordedTransferWhoseNonceAnotherTransactionTookWasReplaced() {
        long block = devnet.web3j().ethBlockNumber().sendAsync().join().getBlockNumber().longValueExact();
        transfer(walletWith(devnet, BigInteger.ZERO));
        sendStartedAt(0, block);
        commands.sendAndWait(new RecordGasGrantBroadcast(wallet, attempt, "0x" + "7f".repeat(32), 0L));

        GasGrantRow row = settled();

        assertThat(row.status()).isEqualTo(GasGrantRow.Status.FAILED);
        assertThat(row.failure()).isEqualTo("replaced");
        assertThat(polBalance(devnet, wallet)).isZero();
    }

    @Test
    void aRecoveryReadingTheAttemptAsReservedAfterItsSendStartedReleasesNothing() {
        long block = devnet.web3j().ethBlockNumber().sendAsync().join().getBlockNumber().longValueExact();
        commands.sendAndWait(new ReserveGasGrant(wallet, attempt, GRANT, Instant.now()));
        GasGrantRow reserved = await().atMost(DEADLINE).until(() -> table.find(wallet), row -> row.isPresent()
                && row.get().status() == GasGrantRow.Status.RESERVED).orElseThrow();
        commands.sendAndWait(new StartGasGrantSend(wallet, attempt, faucet.getAddress(), 0, block));
        String txHash = transfer(wallet).txHash();

        // the row as a read model behind the ledger still shows it: the send's start not yet projected
        assertThat(restarted.recovery().resolve(reserved)).isFalse();

        GasGrantRow row = settled();
        assertThat(row.status()).isEqualTo(GasGrantRow.Status.GRANTED);
        assertThat(row.txHash()).isEqualTo(txHash);
        assertThat(polBalance(devnet, wallet)).isEqualTo(GRANT);
    }

    @Test
    void aReservationWhoseSendNeverStartedIsReleased() {
        commands.sendAndWait(new ReserveGasGrant(wallet, attempt, GRANT, Instant.now()));

        GasGrantRow row = settled();

        assertThat(row.status()).isEqualTo(GasGrantRow.Status.FAILED);
        assertThat(row.failure()).isEqualTo("not_sent");
    }

    @Test
    void aYoungPendingAttemptIsLeftToItsRequest() {
        EnabledGasStation waitingAMinute = station(devnet, devnet.rpcUrl(), faucet,
                properties(Duration.ofSeconds(5), Duration.ofMinutes(1)), commands, table);
        commands.sendAndWait(new ReserveGasGrant(wallet, attempt, GRANT, Instant.now()));

        assertThat(waitingAMinute.recovery().resolve(wallet)).isFalse();
        assertThat(table.find(wallet).orElseThrow().status()).isEqualTo(GasGrantRow.Status.RESERVED);
        GasStationReply meanwhile = waitingAMinute.request(wallet);
        assertThat(meanwhile.body()).containsEntry("code", "grant_pending");
        assertThat(meanwhile.retryAfter()).isNotNull();
    }
}
