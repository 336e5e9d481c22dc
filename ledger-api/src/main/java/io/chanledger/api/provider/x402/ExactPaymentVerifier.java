package io.chanledger.api.provider.x402;

import io.chanledger.api.provider.x402.X402Payments.Row;
import io.chanledger.api.provider.x402.X402Settlement.PaymentStatus;
import io.chanledger.api.provider.x402.X402Settlement.Verification;
import io.chanledger.chain.abi.Eip3009Token;
import io.chanledger.chain.rpc.EthApi;
import io.chanledger.chain.rpc.RpcException;
import io.chanledger.domain.eip712.ContractSignatureRule;
import io.chanledger.domain.eip712.Eip3009TypedData;
import io.chanledger.domain.eip712.Hex;
import io.chanledger.domain.eip712.SignatureVerdict;
import java.math.BigInteger;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;

/**
 * The checks of an {@code exact} payment for {@link ProviderFacilitator}, as the token would judge
 * it: the offer made, the payer's signature, its time window, its nonce unused on chain and here,
 * the payer's balance; and, after a transfer failed, which of those it was.
 */
final class ExactPaymentVerifier {

    private static final Logger log = LoggerFactory.getLogger(ExactPaymentVerifier.class);

    private final EthApi eth;
    private final X402Payments payments;
    private final Clock clock;
    private final String token;
    private final String payTo;
    private final Eip3009TypedData typedData;
    private final Duration validityMargin;

    ExactPaymentVerifier(EthApi eth, X402Payments payments, Clock clock, String token, String payTo,
                         Eip3009TypedData typedData, Duration validityMargin) {
        this.eth = eth;
        this.payments = payments;
        this.clock = clock;
        this.token = token;
        this.payTo = payTo;
        this.typedData = typedData;
        this.validityMargin = validityMargin;
    }

    /** As {@link X402Settlement#verify}: every check before the upstream is called; the chain or the database failing is a refusal. */
    Verification verify(PaymentPayload payload, PaymentRequirements requirements) {
        try {
            return verifyOrThrow(payload, requirements);
        } catch (RpcException e) {
            log.warn("x402: payment of {} not verified, the chain could not be read: {}", payload.payer(), e.getMessage());
            return new Verification.Invalid(X402Reason.UNEXPECTED_VERIFY_ERROR, payload.payer(),
                    "the chain could not be read");
        } catch (DataAccessException e) {
            log.warn("x402: payment of {} not verified, the database could not be read: {}", payload.payer(), e.toString());
            return new Verification.Invalid(X402Reason.UNEXPECTED_VERIFY_ERROR, payload.payer(),
                    "the payment could not be looked up");
        }
    }

    private Verification verifyOrThrow(PaymentPayload payload, PaymentRequirements requirements) {
        ExactAuthorization a = payload.authorization();
        String payer = a.from();
        if (!X402Network.SCHEME_EXACT.equals(payload.scheme())) {
            return invalid(X402Reason.UNSUPPORTED_SCHEME, payer, "only the scheme exact is accepted");
        }
        if (!X402Network.SCHEME_EXACT.equals(requirements.scheme())) {
            return invalid(X402Reason.INVALID_SCHEME, payer, "the requirements are not of the scheme exact");
        }
        if (!X402Network.isPolygon(payload.network(), payload.x402Version())
                || !(X402Network.isPolygon(requirements.network(), 1) || X402Network.isPolygon(requirements.network(), 2))) {
            return invalid(X402Reason.INVALID_NETWORK, payer, "payments are taken on Polygon only");
        }
        if (!sameAddress(requirements.asset(), token)) {
            return invalid(X402Reason.INVALID_PAYMENT_REQUIREMENTS, payer, "the asset is not the token settled here");
        }
        if (!sameAddress(requirements.payTo(), payTo)) {
            return invalid(X402Reason.INVALID_PAYMENT_REQUIREMENTS, payer, "payTo is not this provider's wallet");
        }
        PaymentRequirements accepted = payload.accepted();
        if (accepted != null && !(accepted.scheme().equals(requirements.scheme())
                && accepted.network().equals(requirements.network()) && accepted.amount().equals(requirements.amount())
                && sameAddress(accepted.asset(), requirements.asset()) && sameAddress(accepted.payTo(), requirements.payTo()))) {
            return invalid(X402Reason.INVALID_PAYMENT_REQUIREMENTS, payer, "the accepted offer is not the one made");
        }
        if (!sameAddress(a.to(), payTo)) {
            return invalid(X402Reason.INVALID_RECIPIENT, payer, "the authorization pays someone else");
        }
        if (!a.value().equals(requirements.amount())) {
            return invalid(X402Reason.INVALID_VALUE, payer, "the authorization's value is not the price");
        }
        byte[] digest = typedData.transferDigest(a.from(), a.to(), a.value(), a.validAfter(), a.validBefore(), a.nonce());
        byte[] signature = Hex.decode(payload.signature());
        if (!signedByPayer(digest, signature, payer)) {
            return invalid(X402Reason.INVALID_SIGNATURE, payer, "the signature is not the payer's");
        }
        Optional<Row> known = payments.find(payload.key());
        if (known.isPresent() && known.get().status() != PaymentStatus.RELEASED) {
            // the same payment again: reserve() tells the caller what became of it (kept answer, in progress, failed)
            return known.get().signature().equals(payload.signature()) && known.get().record().amount().equals(a.value())
                    ? new Verification.Valid(payload, requirements, payer)
                    : invalid(X402Reason.INVALID_TRANSACTION_STATE, payer, "the authorization's nonce is used");
        }
        long now = clock.instant().getEpochSecond();
        if (a.validAfter().compareTo(BigInteger.valueOf(now)) >= 0) { // the token takes it only after validAfter
            return invalid(X402Reason.INVALID_VALID_AFTER, payer, "the authorization is not valid yet");
        }
        if (a.validBefore().compareTo(BigInteger.valueOf(now + validityMargin.toSeconds())) <= 0) {
            return invalid(X402Reason.INVALID_VALID_BEFORE, payer, "the authorization expires before it can be settled");
        }
        if (authorizationUsed(payer, a.nonce())) {
            return invalid(X402Reason.INVALID_TRANSACTION_STATE, payer, "the authorization's nonce is used on chain");
        }
        if (balanceOf(payer).compareTo(a.value()) < 0) {
            return invalid(X402Reason.INSUFFICIENT_FUNDS, payer, "the payer's balance does not cover the payment");
        }
        return new Verification.Valid(payload, requirements, payer);
    }

    /**
     * As the token decides: a key's signature under the contract signature rule with {@code v} 27 or
     * 28 (FiatToken's ecrecover refuses the 0 and 1 the channel contract also takes), else, for an
     * address with code, ERC-1271 {@code isValidSignature}.
     */
    private boolean signedByPayer(byte[] digest, byte[] signature, String payer) {
        SignatureVerdict verdict = ContractSignatureRule.recover(digest, signature);
        if (verdict instanceof SignatureVerdict.Recovered recovered && recovered.isSigner(payer)
                && (signature[64] == 27 || signature[64] == 28)) {
            return true;
        }
        String code = eth.code(payer, "latest");
        if (code.length() <= 2) {
            return false;
        }
        try {
            return Eip3009Token.isMagicValue(eth.call(null, payer, Eip3009Token.isValidSignature(digest, signature),
                    BigInteger.ZERO, "latest"));
        } catch (RpcException e) {
            if (e.isTransient()) {
                throw e;
            }
            return false; // the wallet reverted: it does not vouch for the signature
        }
    }

    /** Why a transfer would revert or did: the nonce used, the balance short, the window over; else unknown. */
    X402Reason diagnose(ExactAuthorization a, String revertReason) {
        try {
            if (authorizationUsed(a.from(), a.nonce())) {
                return X402Reason.INVALID_TRANSACTION_STATE;
            }
            if (balanceOf(a.from()).compareTo(a.value()) < 0) {
                return X402Reason.INSUFFICIENT_FUNDS;
            }
        } catch (RpcException e) {
            log.info("x402: why the transfer of {} failed could not be read: {}", a.from(), e.getMessage());
        }
        if (a.validBefore().compareTo(BigInteger.valueOf(clock.instant().getEpochSecond())) <= 0) {
            return X402Reason.INVALID_VALID_BEFORE;
        }
        if (revertReason != null && revertReason.contains("invalid signature")) {
            return X402Reason.INVALID_SIGNATURE;
        }
        return X402Reason.UNEXPECTED_SETTLE_ERROR;
    }

    boolean authorizationUsed(String authorizer, String nonce) {
        return Eip3009Token.word(eth.call(null, token, Eip3009Token.authorizationState(authorizer, nonce),
                BigInteger.ZERO, "latest")).signum() != 0;
    }

    BigInteger balanceOf(String account) {
        return Eip3009Token.word(eth.call(null, token, Eip3009Token.balanceOf(account), BigInteger.ZERO, "latest"));
    }

    private static Verification.Invalid invalid(X402Reason reason, String payer, String detail) {
        return new Verification.Invalid(reason, payer, detail);
    }

    static boolean sameAddress(String a, String b) {
        return a != null && b != null && a.equalsIgnoreCase(b);
    }
}
