package io.chanledger.chain.contract;

import static io.chanledger.testsupport.UsdcAuthorizations.SignatureForm.BYTES;
import static io.chanledger.testsupport.UsdcAuthorizations.SignatureForm.V_R_S;
import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.List;

import io.chanledger.testsupport.Authorization;
import io.chanledger.testsupport.Devnet;
import io.chanledger.testsupport.DevnetAccounts;
import io.chanledger.testsupport.UsdcAuthorizations;
import io.chanledger.testsupport.UsdcAuthorizations.SignatureForm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.web3j.crypto.Credentials;
import org.web3j.protocol.core.methods.response.Log;
import org.web3j.protocol.core.methods.response.TransactionReceipt;

/**
 * EIP-3009 on the devnet's USDC as x402's {@code exact} scheme uses it: a payer signs, someone
 * else sends and pays the gas, the token moves exactly the signed value once per nonce, inside
 * the signed time window, and refuses everything else without moving anything.
 */
class UsdcAuthorizationTest extends ContractTestSupport {

    static final UsdcAuthorizations USDC = DEVNET.usdcAuthorizations();
    static final Credentials PAYER = CONSUMER;
    static final Credentials PAYEE = PROVIDER;
    static final Credentials RELAYER = STRANGER;
    static final BigInteger VALUE = usdc(1_234_567);
    static final String USED = "Error: FiatTokenV2: authorization is used or canceled";

    static Authorization authorization(BigInteger value) {
        long now = DEVNET.latestBlockTimestamp().longValueExact();
        return Authorization.of(PAYER.getAddress(), PAYEE.getAddress(), value, 0, now + 3600);
    }

    @ParameterizedTest
    @EnumSource(SignatureForm.class)
    void aSignedAuthorizationMovesExactlyItsValueWithTheRelayerPayingTheGas(SignatureForm form) {
        Authorization authorization = authorization(VALUE);
        BigInteger payer = balance(PAYER);
        BigInteger payee = balance(PAYEE);
        BigInteger relayer = balance(RELAYER);

        TransactionReceipt receipt = USDC.transferWithAuthorization(RELAYER, authorization,
                USDC.signTransfer(PAYER, authorization), form);

        assertThat(balance(PAYER)).isEqualTo(payer.subtract(VALUE));
        assertThat(balance(PAYEE)).isEqualTo(payee.add(VALUE));
        assertThat(balance(RELAYER)).isEqualTo(relayer);
        assertThat(receipt.getFrom()).isEqualTo(RELAYER.getAddress());
        assertThat(USDC.eventNames(receipt)).containsExactly("AuthorizationUsed", "Transfer");
        Log used = USDC.logs(receipt, "AuthorizationUsed").getFirst();
        assertThat(Devnet.topicAddress(used, 1)).isEqualTo(PAYER.getAddress());
        assertThat(used.getTopics().get(2)).isEqualTo(authorization.nonce());
        Log transfer = USDC.logs(receipt, "Transfer").getFirst();
        assertThat(List.of(Devnet.topicAddress(transfer, 1), Devnet.topicAddress(transfer, 2)))
                .containsExactly(PAYER.getAddress(), PAYEE.getAddress());
        assertThat(Devnet.amountOf(transfer)).isEqualTo(VALUE);
        assertThat(USDC.authorizationState(PAYER.getAddress(), authorization.nonce())).isTrue();
    }

    @Test
    void aUsedNonceIsRefusedForTheSameAuthorizationAndForAnyOther() {
        Authorization authorization = authorization(VALUE);
        byte[] signature = USDC.signTransfer(PAYER, authorization);
        USDC.transferWithAuthorization(RELAYER, authorization, signature, BYTES);
        BigInteger payer = balance(PAYER);

        assertReverts(() -> USDC.transferWithAuthorization(RELAYER, authorization, signature, BYTES), USED);
        assertReverts(() -> USDC.transferWithAuthorization(PAYEE, authorization, signature, V_R_S), USED);
        Authorization smaller = authorization.withValue(usdc(1));
        assertReverts(() -> USDC.transferWithAuthorization(RELAYER, smaller, USDC.signTransfer(PAYER, smaller), BYTES),
                USED);
        assertThat(balance(PAYER)).isEqualTo(payer);
    }

    @Test
    void aNonceIsSpentForItsAuthorizerOnly() {
        Authorization first = authorization(VALUE);
        USDC.transferWithAuthorization(RELAYER, first, USDC.signTransfer(PAYER, first), BYTES);
        Credentials otherPayer = DevnetAccounts.anvil(4);
        Authorization sameNonce = new Authorization(otherPayer.getAddress(), PAYEE.getAddress(), VALUE,
                first.validAfter(), first.validBefore(), first.nonce());

        USDC.transferWithAuthorization(RELAYER, sameNonce, USDC.signTransfer(otherPayer, sameNonce), BYTES);

        assertThat(USDC.authorizationState(otherPayer.getAddress(), first.nonce())).isTrue();
    }

    @ParameterizedTest
    @EnumSource(SignatureForm.class)
    void aCanceledNonceCanNeverBeUsed(SignatureForm form) {
        Authorization authorization = authorization(VALUE);
        byte[] transferSignature = USDC.signTransfer(PAYER, authorization);
        String payer = PAYER.getAddress();

        TransactionReceipt receipt = USDC.cancelAuthorization(RELAYER, payer, authorization.nonce(),
                USDC.signCancel(PAYER, payer, authorization.nonce()), form);

        assertThat(USDC.eventNames(receipt)).containsExactly("AuthorizationCanceled");
        Log canceled = USDC.logs(receipt, "AuthorizationCanceled").getFirst();
        assertThat(Devnet.topicAddress(canceled, 1)).isEqualTo(payer);
        assertThat(canceled.getTopics().get(2)).isEqualTo(authorization.nonce());
        assertThat(USDC.authorizationState(payer, authorization.nonce())).isTrue();
        BigInteger before = balance(PAYER);
        assertReverts(() -> USDC.transferWithAuthorization(RELAYER, authorization, transferSignature, BYTES), USED);
        assertReverts(() -> USDC.cancelAuthorization(RELAYER, payer, authorization.nonce(),
                USDC.signCancel(PAYER, payer, authorization.nonce()), form), USED);
        assertThat(balance(PAYER)).isEqualTo(before);
    }

    @Test
    void onlyTheAuthorizerCancelsAndAUsedNonceCannotBeCanceled() {
        String payer = PAYER.getAddress();
        String nonce = Authorization.randomNonce();
        assertReverts(() -> USDC.cancelAuthorization(RELAYER, payer, nonce, USDC.signCancel(RELAYER, payer, nonce),
                BYTES), "Error: FiatTokenV2: invalid signature");
        assertThat(USDC.authorizationState(payer, nonce)).isFalse();

        Authorization authorization = authorization(VALUE);
        USDC.transferWithAuthorization(RELAYER, authorization, USDC.signTransfer(PAYER, authorization), BYTES);
        assertReverts(() -> USDC.cancelAuthorization(RELAYER, payer, authorization.nonce(),
                USDC.signCancel(PAYER, payer, authorization.nonce()), BYTES), USED);
    }

    @Test
    void validAfterIsExclusive() {
        long next = DEVNET.latestBlockTimestamp().longValueExact() + 100;
        DEVNET.setNextBlockTimestamp(next);
        Authorization notYet = withWindow(next, next + 3600);
        Authorization justValid = withWindow(next - 1, next + 3600);

        assertReverts(() -> send(notYet), "Error: FiatTokenV2: authorization is not yet valid");
        assertThat(send(justValid).isStatusOK()).isTrue();
        assertThat(DEVNET.latestBlockTimestamp().longValueExact()).isEqualTo(next);
    }

    @Test
    void validBeforeIsExclusive() {
        long next = DEVNET.latestBlockTimestamp().longValueExact() + 100;
        DEVNET.setNextBlockTimestamp(next);
        Authorization expired = withWindow(0, next);
        Authorization lastSecond = withWindow(0, next + 1);

        assertReverts(() -> send(expired), "Error: FiatTokenV2: authorization is expired");
        assertThat(send(lastSecond).isStatusOK()).isTrue();
        assertThat(DEVNET.latestBlockTimestamp().longValueExact()).isEqualTo(next);
    }

    @Test
    void anExpiredOrNotYetValidAuthorizationMovesNothingAndKeepsItsNonce() {
        long now = DEVNET.latestBlockTimestamp().longValueExact();
        Authorization expired = withWindow(0, now - 60);
        Authorization tomorrow = withWindow(now + ONE_DAY, now + 2 * ONE_DAY);
        BigInteger payer = balance(PAYER);

        assertReverts(() -> send(expired), "Error: FiatTokenV2: authorization is expired");
        assertReverts(() -> send(tomorrow), "Error: FiatTokenV2: authorization is not yet valid");

        assertThat(balance(PAYER)).isEqualTo(payer);
        assertThat(USDC.authorizationState(PAYER.getAddress(), expired.nonce())).isFalse();
        assertThat(USDC.authorizationState(PAYER.getAddress(), tomorrow.nonce())).isFalse();
        passTime(ONE_DAY + 1);
        assertThat(send(tomorrow).isStatusOK()).isTrue();
        assertThat(balance(PAYER)).isEqualTo(payer.subtract(VALUE));
    }

    @Test
    void moreThanTheBalanceIsRefusedAndLeavesTheNonceUnused() {
        Authorization tooMuch = authorization(balance(PAYER).add(BigInteger.ONE));

        assertReverts(() -> send(tooMuch), "InsufficientBalance");

        assertThat(USDC.authorizationState(PAYER.getAddress(), tooMuch.nonce())).isFalse();
    }

    @ParameterizedTest
    @EnumSource(SignatureForm.class)
    void receiveWithAuthorizationIsThePayeesToSend(SignatureForm form) {
        Authorization authorization = authorization(VALUE);
        byte[] signature = USDC.signReceive(PAYER, authorization);
        BigInteger payee = balance(PAYEE);

        for (Credentials other : List.of(RELAYER, PAYER)) {
            assertReverts(() -> USDC.receiveWithAuthorization(other, authorization, signature, form),
                    "Error: FiatTokenV2: caller must be the payee");
        }
        assertThat(USDC.authorizationState(PAYER.getAddress(), authorization.nonce())).isFalse();

        TransactionReceipt receipt = USDC.receiveWithAuthorization(PAYEE, authorization, signature, form);
        assertThat(USDC.eventNames(receipt)).containsExactly("AuthorizationUsed", "Transfer");
        assertThat(balance(PAYEE)).isEqualTo(payee.add(VALUE));
        assertReverts(() -> USDC.receiveWithAuthorization(PAYEE, authorization, signature, form), USED);
    }

    private static Authorization withWindow(long validAfter, long validBefore) {
        return Authorization.of(PAYER.getAddress(), PAYEE.getAddress(), VALUE, validAfter, validBefore);
    }

    private static TransactionReceipt send(Authorization authorization) {
        return USDC.transferWithAuthorization(RELAYER, authorization, USDC.signTransfer(PAYER, authorization), BYTES);
    }
}
