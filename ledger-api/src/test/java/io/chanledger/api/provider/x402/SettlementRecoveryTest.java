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
import io.chanledger.chain.devnet.AnvilNode;
import io.chanledger.chain.devnet.Devnet;
import java.math.BigInteger;
import java.time.Clock;
import java.time.Duration;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.web3j.crypto.Credentials;

/**
 * Settlements a process left unfinished (sent without a receipt, then the process gone) are
 * finished by the next process from the transaction written down before the send: the same bytes
 * handed to the node again, even when the node lost them, never a second signature. A node of the
 * test's own, whose mining the test controls.
 */
class SettlementRecoveryTest extends LedgerIntegrationTest {

    private static AnvilNode node;
    private static Devnet chain;

    @Autowired
    DataSource dataSource;

    private Credentials provider;
    private String payTo;
    private Credentials payer;

    @BeforeAll
    static void aNodeOfItsOwn() {
        node = AnvilNode.start();
        chain = Devnet.deploy(node);
    }

    @AfterAll
    static void stopTheNode() {
        node.close();
    }

    @BeforeEach
    void walletsOfTheirOwn() {
        chain.rpc().setAutomine(true);
        provider = providerWallet(chain);
        payTo = provider.getAddress().toLowerCase();
        payer = payer(chain, BigInteger.valueOf(1_000_000));
    }

    @Test
    void aSettlementSentWithoutReceiptIsSentAgainAfterARestartAndSettledOnce() {
        PaymentPayload payment = payment(chain, payer, authorization(chain, payer, payTo, PRICE), offer(chain, payTo));
        ProviderFacilitator before = instance(chain, provider, dataSource, Duration.ofMillis(300)).facilitator();
        Reservation.Reserved reserved = (Reservation.Reserved) before.reserve(
                (Verification.Valid) before.verify(payment, offer(chain, payTo)));
        chain.rpc().setAutomine(false);

        Settlement pending = before.settle(reserved, "echo-flat");
        assertThat(pending).isInstanceOf(Settlement.Pending.class);
        String txHash = ((Settlement.Pending) pending).transaction();
        // the process is gone, and the node lost the transaction it had pooled
        chain.rpc().raw("anvil_dropTransaction", txHash);
        assertThat(pooled(txHash)).isFalse();

        X402Fixtures.Instance after = instance(chain, provider, dataSource, Duration.ofMillis(300),
                Clock.offset(Clock.systemUTC(), Duration.ofSeconds(10)));
        assertThat(after.facilitator().recoverUnfinished()).isZero();
        assertThat(pooled(txHash)).as("the stored transaction handed to the node again").isTrue();
        chain.mine();
        assertThat(after.facilitator().recoverUnfinished()).isEqualTo(1);

        assertThat(after.facilitator().lookup(payment.key())).hasValueSatisfying(record -> {
            assertThat(record.status()).isEqualTo(PaymentStatus.SETTLED);
            assertThat(record.transaction()).isEqualTo(txHash);
        });
        assertThat(nonceOf(chain, payTo)).as("one transaction of the provider's wallet").isEqualTo(1);
        assertThat(chain.balanceOf(payTo)).isEqualTo(PRICE);
        assertThat(after.settled()).hasSize(1);
        assertThat(before.reserve((Verification.Valid) before.verify(payment, offer(chain, payTo))))
                .isInstanceOf(Reservation.AlreadySettled.class);
    }

    @Test
    void aReservationWhoseRequestDiedIsReleasedAndTheAuthorizationStaysUnused() {
        PaymentPayload payment = payment(chain, payer, authorization(chain, payer, payTo, PRICE), offer(chain, payTo));
        ProviderFacilitator before = instance(chain, provider, dataSource, Duration.ofSeconds(10)).facilitator();
        before.reserve((Verification.Valid) before.verify(payment, offer(chain, payTo)));

        ProviderFacilitator soon = instance(chain, provider, dataSource, Duration.ofSeconds(10),
                Clock.offset(Clock.systemUTC(), Duration.ofMinutes(1))).facilitator();
        soon.recoverUnfinished();
        assertThat(soon.lookup(payment.key())).hasValueSatisfying(r -> assertThat(r.status()).isEqualTo(PaymentStatus.RESERVED));

        ProviderFacilitator later = instance(chain, provider, dataSource, Duration.ofSeconds(10),
                Clock.offset(Clock.systemUTC(), Duration.ofMinutes(16))).facilitator();
        assertThat(later.recoverUnfinished()).isEqualTo(1);

        assertThat(later.lookup(payment.key())).hasValueSatisfying(r -> assertThat(r.status()).isEqualTo(PaymentStatus.RELEASED));
        assertThat(chain.usdcAuthorizations().authorizationState(payer.getAddress(), payment.key().nonce())).isFalse();
        assertThat(nonceOf(chain, payTo)).isZero();
    }

    private static boolean pooled(String txHash) {
        try {
            return chain.web3j().ethGetTransactionByHash(txHash).send().getTransaction().isPresent();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
