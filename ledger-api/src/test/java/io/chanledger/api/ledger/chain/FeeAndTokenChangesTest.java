package io.chanledger.api.ledger.chain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.chanledger.api.ledger.audit.AuditCli;
import io.chanledger.api.ledger.channels.command.ChannelHistory;
import io.chanledger.api.ledger.channels.command.ContractSettingsHistory;
import io.chanledger.api.support.Http;
import io.chanledger.api.support.LedgerIntegrationTest;
import io.chanledger.api.ledger.wallet.WalletSigning;
import io.chanledger.testsupport.Devnet;
import io.chanledger.testsupport.DevnetAccounts;
import io.chanledger.domain.channel.ChannelClaimed;
import io.chanledger.domain.channel.ChannelState;
import io.chanledger.domain.eip712.DigestSigner;
import io.chanledger.domain.eip712.Hex;
import java.math.BigInteger;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.axonframework.eventhandling.DomainEventMessage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.web3j.crypto.Credentials;
import org.web3j.crypto.Keys;
import org.web3j.utils.Numeric;

/**
 * The shared devnet's contract changes its fee between two claims, and its token: the ledger
 * records both from the logs, and the figures that depend on them follow. The contract's settings
 * are global to the devnet, so each test puts them back as it found them.
 */
class FeeAndTokenChangesTest extends LedgerIntegrationTest {

    private static final Credentials OWNER = DevnetAccounts.deployer();
    private static final BigInteger DEPOSIT = BigInteger.valueOf(5_000_000);
    private static final BigInteger RAISED_FEE_BPS = BigInteger.valueOf(500);

    @Autowired
    ContractSettingsHistory contract;
    @Autowired
    ChannelHistory history;
    @Value("${spring.datasource.url}")
    String databaseUrl;
    @TempDir
    Path dir;

    private static Credentials freshWallet() {
        try {
            Credentials wallet = Credentials.create(Keys.createEcKeyPair());
            devnet().setBalance(wallet.getAddress(), Devnet.GAS_MONEY);
            return wallet;
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static DigestSigner signer(Credentials wallet) {
        return new DigestSigner(Numeric.toBytesPadded(wallet.getEcKeyPair().getPrivateKey(), 32));
    }

    private void awaitFee(BigInteger feeBps) {
        await("the ledger records the fee of " + feeBps + " bps").atMost(Duration.ofSeconds(30))
                .until(() -> contract.current().feeBps().equals(feeBps));
    }

    private ChannelState awaitState(String channelId, String what, java.util.function.Predicate<ChannelState> done) {
        return await(what).atMost(Duration.ofSeconds(30))
                .until(() -> history.state(channelId).orElse(null), value -> value != null && done.test(value));
    }

    @Test
    void aFeeChangeBetweenTwoClaimsIsFollowedByTheLedgerTheClaimablesAndTheAudit() throws Exception {
        Devnet devnet = devnet();
        BigInteger feeBefore = devnet.feeBps();
        String recipient = devnet.feeRecipient();
        Credentials consumer = freshWallet();
        Credentials provider = freshWallet();
        String channelId = devnet.fundAndOpen(consumer, provider.getAddress(), DEPOSIT, 86_400).channelId();
        awaitState(channelId, "the ledger records the channel", state -> true);
        LedgerView ledger = new LedgerView(baseUrl());
        BigInteger first = BigInteger.valueOf(1_000_000);
        BigInteger second = BigInteger.valueOf(3_000_000);
        byte[] firstVoucher = devnet.signVoucher(consumer, channelId, first, BigInteger.ONE);
        byte[] secondVoucher = devnet.signVoucher(consumer, channelId, second, BigInteger.TWO);
        assertThat(ledger.postVoucher(channelId, first, BigInteger.ONE, Hex.encode(firstVoucher)).status()).isEqualTo(200);
        assertThat(ledger.postVoucher(channelId, second, BigInteger.TWO, Hex.encode(secondVoucher)).status()).isEqualTo(200);

        devnet.claim(provider, channelId, first, BigInteger.ONE, firstVoucher);
        awaitState(channelId, "the first claim is recorded", state -> state.claimed().equals(first));
        try {
            devnet.setFee(OWNER, recipient, RAISED_FEE_BPS);
            awaitFee(RAISED_FEE_BPS);

            JsonNode claim = await("the claimables show what is left after the first claim").atMost(Duration.ofSeconds(30))
                    .until(() -> {
                String path = "/api/providers/" + provider.getAddress() + "/claimable";
                Http.Reply reply = Http.send(WalletSigning.signedGet(baseUrl(), path, signer(provider),
                        Instant.now().getEpochSecond()));
                return reply.status() == 200 ? reply.json().path("claims").path(0) : null;
            }, c -> c != null && "2000000".equals(c.path("claimable").asText()));
            assertThat(claim.path("channelId").asText()).isEqualTo(channelId);
            assertThat(claim.path("netClaimable").asText()).as("less 5 %, the fee the next claim pays")
                    .isEqualTo("1900000");
            assertThat(ledger.channel(channelId).path("netClaimable").asText()).isEqualTo("1900000");

            devnet.claim(provider, channelId, second, BigInteger.TWO, secondVoucher);
            ChannelState state = awaitState(channelId, "the second claim is recorded",
                    s -> s.claimed().equals(second));
            List<BigInteger> fees = history.events(channelId).stream().map(DomainEventMessage::getPayload)
                    .filter(ChannelClaimed.class::isInstance).map(e -> ((ChannelClaimed) e).fee()).toList();
            assertThat(fees).containsExactly(BigInteger.valueOf(20_000), BigInteger.valueOf(100_000));
            assertThat(state.feesPaid()).isEqualTo(BigInteger.valueOf(120_000));
        } finally {
            devnet.setFee(OWNER, recipient, feeBefore);
            awaitFee(feeBefore);
        }

        List<String> export = export(channelId);
        AuditCli.Result clean = verify(export);
        assertThat(clean.status()).as(clean.out()).isZero();
        assertThat(clean.out()).contains("OK: no findings");

        int secondClaim = indexOf(export, "ChannelClaimed", "\"payout\":\"2000000\"");
        int raise = indexOf(export, "FeeUpdated", "\"feeBps\":\"" + RAISED_FEE_BPS + "\"");
        assertThat(raise).isLessThan(secondClaim);
        List<String> withoutTheRaise = new ArrayList<>(export);
        withoutTheRaise.remove(raise);
        AuditCli.Result unaware = verify(withoutTheRaise);
        assertThat(unaware.status()).as(unaware.out()).isEqualTo(1);
        assertThat(unaware.out()).contains("line " + secondClaim + ",").contains("fee_mismatch")
                .contains("expected 40000 at the fee of 200 bps");

        List<String> oldFee = new ArrayList<>(export);
        oldFee.set(secondClaim, oldFee.get(secondClaim).replace("\"fee\":\"100000\"", "\"fee\":\"40000\""));
        AuditCli.Result underpaid = verify(oldFee);
        assertThat(underpaid.status()).as(underpaid.out()).isEqualTo(1);
        assertThat(underpaid.out()).contains("line " + (secondClaim + 1) + ",").contains("fee_mismatch")
                .contains("expected 100000 at the fee of 500 bps");
    }

    @Test
    void aTokenChangeIsRecordedAndReconcileCountsTheNewToken() {
        Devnet devnet = devnet();
        String tokenBefore = devnet.usdc();
        Credentials consumer = freshWallet();
        String channelId = devnet.fundAndOpen(consumer, freshWallet().getAddress(), DEPOSIT, 86_400).channelId();
        awaitState(channelId, "the ledger records the channel", state -> true);
        String newToken = devnet.deployTestUsdc(freshWallet()).toLowerCase(Locale.ROOT);
        try {
            devnet.setUsdc(OWNER, newToken);
            await("the ledger records the token change").atMost(Duration.ofSeconds(30))
                    .until(() -> newToken.equals(contract.current().usdc()));

            AuditCli.Result unfunded = reconcile(channelId);
            assertThat(unfunded.status()).as(unfunded.out()).isEqualTo(1);
            assertThat(unfunded.out()).contains("token " + newToken).contains("token_balance_short")
                    .contains("holds 0 USDC base units");

            devnet.mint(newToken, devnet.channelAddress(), DEPOSIT);
            AuditCli.Result funded = reconcile(channelId);
            assertThat(funded.status()).as(funded.out()).isZero();
            assertThat(funded.out()).contains("token " + newToken).contains("OK: no mismatches");
        } finally {
            devnet.setUsdc(OWNER, tokenBefore);
            await("the ledger records the token's return").atMost(Duration.ofSeconds(30))
                    .until(() -> tokenBefore.equals(contract.current().usdc()));
        }
    }

    private List<String> export(String channelId) throws Exception {
        return AuditCli.exportChannel(dir, databaseUrl, channelId);
    }

    private AuditCli.Result verify(List<String> lines) throws Exception {
        return AuditCli.verify(dir, lines, devnet().channelAddress());
    }

    private AuditCli.Result reconcile(String channelId) {
        Devnet devnet = devnet();
        return AuditCli.run("reconcile", "--channel", channelId, "--spring.profiles.active=postgres",
                "--spring.datasource.url=" + databaseUrl, "--chan.chain.rpc-url=" + devnet.rpcUrl(),
                "--chan.chain.channel-contract=" + devnet.channelAddress(), "--chan.chain.usdc=" + devnet.usdcAddress());
    }

    private static int indexOf(List<String> export, String type, String contains) {
        for (int i = 0; i < export.size(); i++) {
            if (export.get(i).contains("\"type\":\"" + type + "\"") && export.get(i).contains(contains)) {
                return i;
            }
        }
        throw new AssertionError("no " + type + " line with " + contains);
    }
}
