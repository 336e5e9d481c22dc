package io.chanledger.api.ledger.audit;

import io.chanledger.chain.abi.Eip3009Token;
import io.chanledger.domain.eip712.Hex;
import io.chanledger.domain.x402.X402Event;
import io.chanledger.domain.x402.X402PaymentSettled;
import java.math.BigInteger;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiConsumer;

/**
 * The export's x402 payments, each checked as it is read: once per payment and per transaction,
 * and, with a chain to ask, reconciled against the token's Transfer in its transaction.
 */
final class X402PaymentCheck {

    /** Null: the payments are checked within the export only. */
    private final X402Transfers chain;
    /** Reports a finding: its code and detail. */
    private final BiConsumer<String, String> findings;
    /** The payments seen, by stream, and the transactions that settled them. */
    private final Map<String, X402PaymentSettled> payments = new HashMap<>();
    private final Map<String, String> transactions = new HashMap<>();
    private long reconciled;

    X402PaymentCheck(X402Transfers chain, BiConsumer<String, String> findings) {
        this.chain = chain;
        this.findings = findings;
    }

    long payments() {
        return payments.size();
    }

    long reconciled() {
        return reconciled;
    }

    /**
     * A settled x402 payment: the first and only event of its own stream, once per payment and
     * per transaction, of a positive amount; and, with a chain to ask, the token's Transfer of
     * exactly that amount from the payer to the provider in its transaction.
     */
    void payment(String streamId, long sequence, X402PaymentSettled payment) {
        String payer = Hex.normalizeAddress(ExportVerifier.required(payment.payer(), "payer"));
        String provider = Hex.normalizeAddress(ExportVerifier.required(payment.provider(), "provider"));
        BigInteger amount = ExportVerifier.required(payment.amount(), "amount");
        String transaction = ExportVerifier.required(payment.transaction(), "transaction").toLowerCase(Locale.ROOT);
        String stream = X402Event.paymentId(payer, ExportVerifier.required(payment.nonce(), "nonce"));
        if (!stream.equals(streamId) || sequence != 0) {
            findings.accept("x402_stream_mismatch", "payment " + stream + " stored as event " + sequence + " of " + streamId);
        }
        if (payments.putIfAbsent(stream, payment) != null) {
            findings.accept("x402_duplicate_payment", "payment " + stream + " appears twice");
            return;
        }
        String earlier = transactions.putIfAbsent(transaction, stream);
        if (earlier != null) {
            findings.accept("x402_duplicate_transaction", "transaction " + transaction + " settles " + earlier + " too");
        }
        if (amount.signum() <= 0) {
            findings.accept("x402_amount_not_positive", "amount " + amount);
        }
        if (chain == null) {
            return;
        }
        Optional<List<Eip3009Token.Transfer>> transfers = chain.of(transaction);
        if (transfers.isEmpty()) {
            findings.accept("x402_transaction_not_on_chain", "the chain has no receipt of " + transaction);
            return;
        }
        boolean transferred = transfers.get().stream().anyMatch(t -> t.from().equals(payer)
                && t.to().equals(provider) && t.value().equals(amount));
        if (!transferred) {
            findings.accept("x402_transfer_mismatch", "transaction " + transaction + " holds no Transfer of " + amount
                    + " from " + payer + " to " + provider + ": " + transfers.get());
            return;
        }
        reconciled++;
    }
}
