package io.chanledger.api.provider.x402;

import static io.chanledger.api.provider.x402.X402Fixtures.PRICE;
import static io.chanledger.api.provider.x402.X402Fixtures.authorization;
import static io.chanledger.api.provider.x402.X402Fixtures.instance;
import static io.chanledger.api.provider.x402.X402Fixtures.nonceOf;
import static io.chanledger.api.provider.x402.X402Fixtures.offer;
import static io.chanledger.api.provider.x402.X402Fixtures.payer;
import static io.chanledger.api.provider.x402.X402Fixtures.payment;
import static io.chanledger.api.provider.x402.X402Fixtures.providerWallet;
import static org.assertj.core.api.Assertions.assertThat;

import io.chanledger.api.provider.x402.X402Settlement.PaymentStatus;
import io.chanledger.api.provider.x402.X402Settlement.Reservation;
import io.chanledger.api.provider.x402.X402Settlement.Settlement;
import io.chanledger.api.provider.x402.X402Settlement.Verification;
import io.chanledger.api.support.LedgerIntegrationTest;
import io.chanledger.chain.devnet.Authorization;
import io.chanledger.chain.devnet.Devnet;
import io.chanledger.chain.devnet.DevnetAccounts;
import io.chanledger.chain.devnet.UsdcAuthorizations;
import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.web3j.crypto.Credentials;

/**
 * The provider's facilitator on the devnet's EIP-3009 token and the tests' PostgreSQL: what it
 * refuses to verify, and that each authorization is settled by exactly one transaction of the
 * provider's wallet, whatever copies arrive at once and on however many instances.
 */
class ProviderFacilitatorTest extends LedgerIntegrationTest {

    @Autowired
    DataSource dataSource;

    private Devnet devnet;
    private Credentials provider;
    private String payTo;
    private Credentials payer;
    private X402Fixtures.Instance instance;
    private ProviderFacilitator facilitator;
    /** Sends the payer's own authorizations (cancel, transfer elsewhere), as any relayer may. */
    private Credentials gasPayer;

    @BeforeEach
    void walletsOfTheirOwn() {
        devnet = devnet();
        provider = providerWallet(devnet);
        payTo = provider.getAddress().toLowerCase();
        payer = payer(devnet, BigInteger.valueOf(1_000_000));
        instance = instance(devnet, provider, dataSource, Duration.ofSeconds(20));
        facilitator = instance.facilitator();
        gasPayer = providerWallet(devnet);
    }

    private PaymentPayload aPayment() {
        return payment(devnet, payer, authorization(devnet, payer, payTo, PRICE), offer(devnet, payTo));
    }

    @Test
    void aPaymentIsVerifiedReservedAndSettledWithExactlyItsTransfer() {
        PaymentPayload payment = aPayment();

        Verification verification = facilitator.verify(payment, offer(devnet, payTo));
        assertThat(verification).isInstanceOf(Verification.Valid.class);
        Reservation reservation = facilitator.reserve((Verification.Valid) verification);
        assertThat(reservation).isInstanceOf(Reservation.Reserved.class);
        Settlement settlement = facilitator.settle((Reservation.Reserved) reservation, "echo-flat");

        assertThat(settlement).isInstanceOfSatisfying(Settlement.Settled.class, settled -> {
            assertThat(settled.payer()).isEqualTo(payment.payer());
            assertThat(settled.amount()).isEqualTo(PRICE);
            assertThat(settled.transaction()).startsWith("0x").hasSize(66);
        });
        assertThat(devnet.balanceOf(payTo)).isEqualTo(PRICE);
        assertThat(devnet.balanceOf(payer.getAddress())).isEqualTo(BigInteger.valueOf(1_000_000).subtract(PRICE));
        assertThat(nonceOf(devnet, payTo)).isEqualTo(1);
        assertThat(facilitator.lookup(payment.key())).hasValueSatisfying(record -> {
            assertThat(record.status()).isEqualTo(PaymentStatus.SETTLED);
            assertThat(record.model()).isEqualTo("echo-flat");
            assertThat(record.transaction()).isEqualTo(((Settlement.Settled) settlement).transaction());
        });
        assertThat(instance.settled()).hasSize(1);
    }

    @Test
    void theSamePaymentAgainGetsTheSettledRecordAndNoSecondTransaction() {
        PaymentPayload payment = aPayment();
        settle(facilitator, payment);

        Verification again = facilitator.verify(payment, offer(devnet, payTo));
        Reservation reservation = facilitator.reserve((Verification.Valid) again);

        assertThat(reservation).isInstanceOfSatisfying(Reservation.AlreadySettled.class,
                settled -> assertThat(settled.record().key()).isEqualTo(payment.key()));
        assertThat(nonceOf(devnet, payTo)).isEqualTo(1);
        assertThat(devnet.balanceOf(payTo)).isEqualTo(PRICE);
    }

    @Test
    void aStrangerCannotClaimAnotherPayersSettledPaymentWithAnotherSignature() {
        PaymentPayload payment = aPayment();
        settle(facilitator, payment);
        Credentials stranger = payer(devnet, BigInteger.ZERO);
        Authorization same = new Authorization(payment.authorization().from(), payTo, PRICE,
                payment.authorization().validAfter(), payment.authorization().validBefore(), payment.authorization().nonce());

        Verification forged = facilitator.verify(payment(devnet, stranger, same, offer(devnet, payTo)), offer(devnet, payTo));

        assertThat(forged).isInstanceOfSatisfying(Verification.Invalid.class,
                invalid -> assertThat(invalid.reason()).isEqualTo(X402Reason.INVALID_SIGNATURE));
    }

    @Test
    void eachBrokenRuleIsRefusedWithItsReasonAndNothingIsWritten() {
        PaymentRequirements offer = offer(devnet, payTo);
        long now = System.currentTimeMillis() / 1000;
        Authorization good = authorization(devnet, payer, payTo, PRICE);
        Credentials stranger = payer(devnet, BigInteger.ZERO);
        Credentials poor = payer(devnet, PRICE.subtract(BigInteger.ONE));
        String someoneElse = DevnetAccounts.STRANGER_1.getAddress().toLowerCase();

        assertInvalid(payment(devnet, payer, good, offer), offer(devnet, someoneElse), X402Reason.INVALID_PAYMENT_REQUIREMENTS);
        assertInvalid(payment(devnet, payer, good, offer), PaymentRequirements.exact(PRICE, someoneElse, "USD Coin", "2",
                payTo, 60), X402Reason.INVALID_PAYMENT_REQUIREMENTS);
        assertInvalid(payment(devnet, payer, good, offer), new PaymentRequirements("exact", "eip155:8453", PRICE,
                devnet.usdcAddress(), payTo, 60, null), X402Reason.INVALID_NETWORK);
        assertInvalid(payment(devnet, payer, good, offer(devnet, payTo)),
                PaymentRequirements.exact(PRICE.add(BigInteger.ONE), devnet.usdcAddress(), "USD Coin", "2", payTo, 60),
                X402Reason.INVALID_PAYMENT_REQUIREMENTS);
        assertInvalid(payment(devnet, payer, authorization(devnet, payer, someoneElse, PRICE), offer), offer,
                X402Reason.INVALID_RECIPIENT);
        assertInvalid(payment(devnet, payer, good.withValue(PRICE.subtract(BigInteger.ONE)), offer), offer,
                X402Reason.INVALID_VALUE);
        assertInvalid(payment(devnet, stranger, good, offer), offer, X402Reason.INVALID_SIGNATURE);
        assertInvalid(payment(devnet, payer, new Authorization(good.from(), good.to(), PRICE, BigInteger.valueOf(now + 3600),
                good.validBefore(), good.nonce()), offer), offer, X402Reason.INVALID_VALID_AFTER);
        assertInvalid(payment(devnet, payer, new Authorization(good.from(), good.to(), PRICE, BigInteger.ZERO,
                BigInteger.valueOf(now + 2), good.nonce()), offer), offer, X402Reason.INVALID_VALID_BEFORE);
        assertInvalid(payment(devnet, poor, authorization(devnet, poor, payTo, PRICE), offer), offer,
                X402Reason.INSUFFICIENT_FUNDS);

        UsdcAuthorizations usdc = devnet.usdcAuthorizations();
        usdc.cancelAuthorization(gasPayer, payer.getAddress(), good.nonce(),
                usdc.signCancel(payer, payer.getAddress(), good.nonce()), UsdcAuthorizations.SignatureForm.BYTES);
        assertInvalid(payment(devnet, payer, good, offer), offer, X402Reason.INVALID_TRANSACTION_STATE);

        assertThat(nonceOf(devnet, payTo)).isZero();
        assertThat(facilitator.lookup(new PaymentKey(payer.getAddress().toLowerCase(), good.nonce()))).isEmpty();
    }

    @Test
    void aContractWalletPaysWithItsOwnersSignatureThroughErc1271() {
        Credentials owner = payer(devnet, BigInteger.ZERO);
        Credentials deployer = providerWallet(devnet);
        String wallet = devnet.usdcAuthorizations().deployTestWallet(deployer, owner.getAddress());
        devnet.mint(wallet, PRICE);
        Authorization authorization = Authorization.of(wallet, payTo, PRICE, 0,
                authorization(devnet, owner, payTo, PRICE).validBefore().longValueExact());

        Settlement settlement = settle(facilitator, payment(devnet, owner, authorization, offer(devnet, payTo)));

        assertThat(settlement).isInstanceOf(Settlement.Settled.class);
        assertThat(devnet.balanceOf(wallet)).isZero();
        assertThat(devnet.balanceOf(payTo)).isEqualTo(PRICE);
        Credentials notTheOwner = payer(devnet, BigInteger.ZERO);
        Authorization second = Authorization.of(wallet, payTo, PRICE, 0, authorization.validBefore().longValueExact());
        assertInvalid(payment(devnet, notTheOwner, second, offer(devnet, payTo)), offer(devnet, payTo),
                X402Reason.INVALID_SIGNATURE);
    }

    @Test
    void fiveCopiesAtOnceMakeOneTransactionAndOneTransfer() throws Exception {
        PaymentPayload payment = aPayment();
        X402Fixtures.Instance other = instance(devnet, provider, dataSource, Duration.ofSeconds(20));

        List<Object> outcomes = atOnce(5, i -> attempt(i % 2 == 0 ? facilitator : other.facilitator(), payment));

        assertThat(outcomes).filteredOn(Settlement.Settled.class::isInstance).hasSize(1);
        assertThat(outcomes).filteredOn(o -> !(o instanceof Settlement.Settled)).allSatisfy(o -> assertThat(o)
                .isInstanceOfAny(Reservation.InProgress.class, Reservation.AlreadySettled.class));
        assertThat(nonceOf(devnet, payTo)).isEqualTo(1);
        assertThat(devnet.balanceOf(payTo)).isEqualTo(PRICE);
        assertThat(instance.settled().size() + other.settled().size()).isEqualTo(1);
    }

    @Test
    void distinctPaymentsAtOnceOnTwoInstancesEachGetATransactionOfTheirOwn() throws Exception {
        X402Fixtures.Instance other = instance(devnet, provider, dataSource, Duration.ofSeconds(20));
        List<PaymentPayload> payments = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            payments.add(aPayment());
        }

        List<Object> outcomes = atOnce(6, i -> attempt(i % 2 == 0 ? facilitator : other.facilitator(), payments.get(i)));

        assertThat(outcomes).allSatisfy(o -> assertThat(o).isInstanceOf(Settlement.Settled.class));
        Set<String> transactions = new HashSet<>();
        outcomes.forEach(o -> transactions.add(((Settlement.Settled) o).transaction()));
        assertThat(transactions).hasSize(6);
        assertThat(nonceOf(devnet, payTo)).isEqualTo(6);
        assertThat(devnet.balanceOf(payTo)).isEqualTo(PRICE.multiply(BigInteger.valueOf(6)));
    }

    @Test
    void aReleasedPaymentStaysUnusedAndMayBeSoldAgain() {
        PaymentPayload payment = aPayment();
        Reservation.Reserved first = (Reservation.Reserved) facilitator.reserve(
                (Verification.Valid) facilitator.verify(payment, offer(devnet, payTo)));

        facilitator.release(first);

        assertThat(facilitator.lookup(payment.key())).hasValueSatisfying(
                r -> assertThat(r.status()).isEqualTo(PaymentStatus.RELEASED));
        assertThat(devnet.usdcAuthorizations().authorizationState(payer.getAddress(), payment.key().nonce())).isFalse();
        assertThat(settle(facilitator, payment)).isInstanceOf(Settlement.Settled.class);
        assertThat(devnet.balanceOf(payTo)).isEqualTo(PRICE);
    }

    @Test
    void aBalanceGoneBeforeSettlementFailsWithNothingSent() {
        PaymentPayload payment = aPayment();
        Reservation.Reserved reserved = (Reservation.Reserved) facilitator.reserve(
                (Verification.Valid) facilitator.verify(payment, offer(devnet, payTo)));
        spendEverything(payer);

        Settlement settlement = facilitator.settle(reserved, "echo-flat");

        assertThat(settlement).isInstanceOfSatisfying(Settlement.Failed.class,
                failed -> assertThat(failed.reason()).isEqualTo(X402Reason.INSUFFICIENT_FUNDS));
        assertThat(nonceOf(devnet, payTo)).isZero();
        assertThat(devnet.balanceOf(payTo)).isZero();
        assertThat(facilitator.lookup(payment.key())).hasValueSatisfying(r -> {
            assertThat(r.status()).isEqualTo(PaymentStatus.FAILED);
            assertThat(r.failure()).isEqualTo(X402Reason.INSUFFICIENT_FUNDS);
        });
        assertThat(facilitator.reserve((Verification.Valid) facilitator.verify(payment, offer(devnet, payTo))))
                .isInstanceOfSatisfying(Reservation.Refused.class,
                        refused -> assertThat(refused.reason()).isEqualTo(X402Reason.INSUFFICIENT_FUNDS));
    }

    @Test
    void anAuthorizationCanceledBeforeSettlementFailsAsUsed() {
        PaymentPayload payment = aPayment();
        Reservation.Reserved reserved = (Reservation.Reserved) facilitator.reserve(
                (Verification.Valid) facilitator.verify(payment, offer(devnet, payTo)));
        UsdcAuthorizations usdc = devnet.usdcAuthorizations();
        usdc.cancelAuthorization(gasPayer, payer.getAddress(), payment.key().nonce(),
                usdc.signCancel(payer, payer.getAddress(), payment.key().nonce()), UsdcAuthorizations.SignatureForm.BYTES);

        Settlement settlement = facilitator.settle(reserved, "echo-flat");

        assertThat(settlement).isInstanceOfSatisfying(Settlement.Failed.class,
                failed -> assertThat(failed.reason()).isEqualTo(X402Reason.INVALID_TRANSACTION_STATE));
        assertThat(nonceOf(devnet, payTo)).isZero();
    }

    /** Moves the payer's whole balance away with an authorization of its own, sent by a stranger. */
    private void spendEverything(Credentials owner) {
        BigInteger all = devnet.balanceOf(owner.getAddress());
        Authorization away = authorization(devnet, owner, DevnetAccounts.STRANGER_1.getAddress(), all);
        UsdcAuthorizations usdc = devnet.usdcAuthorizations();
        usdc.transferWithAuthorization(gasPayer, away, usdc.signTransfer(owner, away),
                UsdcAuthorizations.SignatureForm.BYTES);
        assertThat(devnet.balanceOf(owner.getAddress())).isZero();
    }

    private void assertInvalid(PaymentPayload payment, PaymentRequirements requirements, X402Reason reason) {
        assertThat(facilitator.verify(payment, requirements)).as(reason.code())
                .isInstanceOfSatisfying(Verification.Invalid.class, invalid -> assertThat(invalid.reason()).isEqualTo(reason));
    }

    private Settlement settle(ProviderFacilitator on, PaymentPayload payment) {
        Object outcome = attempt(on, payment);
        assertThat(outcome).isInstanceOf(Settlement.class);
        return (Settlement) outcome;
    }

    /** What a request would do: verify, reserve, settle; the first thing that is not a go-ahead. */
    private Object attempt(ProviderFacilitator on, PaymentPayload payment) {
        PaymentRequirements offer = offer(devnet, payTo);
        Verification verification = on.verify(payment, offer);
        if (!(verification instanceof Verification.Valid valid)) {
            return verification;
        }
        Reservation reservation = on.reserve(valid);
        if (!(reservation instanceof Reservation.Reserved reserved)) {
            return reservation;
        }
        return on.settle(reserved, "echo-flat");
    }

    interface Attempt {
        Object run(int index) throws Exception;
    }

    private static List<Object> atOnce(int count, Attempt attempt) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(count);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Object>> futures = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                int index = i;
                Callable<Object> task = () -> {
                    start.await();
                    return attempt.run(index);
                };
                futures.add(pool.submit(task));
            }
            start.countDown();
            List<Object> outcomes = new ArrayList<>();
            for (Future<Object> future : futures) {
                outcomes.add(future.get());
            }
            return outcomes;
        } finally {
            pool.shutdownNow();
        }
    }
}
