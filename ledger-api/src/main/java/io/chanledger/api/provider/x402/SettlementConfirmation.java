package io.chanledger.api.provider.x402;

import io.chanledger.api.provider.x402.X402Payments.Row;
import io.chanledger.api.provider.x402.X402Settlement.PaymentRecord;
import io.chanledger.chain.abi.Eip3009Token;
import io.chanledger.chain.ingest.Finality;
import io.chanledger.chain.rpc.BlockHeader;
import io.chanledger.chain.rpc.EthApi;
import io.chanledger.domain.x402.X402PaymentConfirmed;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.web3j.protocol.core.methods.response.Log;

/**
 * Confirms settled payments from the chain's final blocks for {@link ProviderFacilitator}: each is
 * told to {@link SettledPayments#confirmed} once its block is final and holds
 * the token's logs of it.
 */
final class SettlementConfirmation {

    private static final Logger log = LoggerFactory.getLogger(SettlementConfirmation.class);
    private static final int BATCH = 100;

    private final EthApi eth;
    private final X402Payments payments;
    private final String token;
    private final String payTo;
    private final SettledPayments settled;

    SettlementConfirmation(EthApi eth, X402Payments payments, String token, String payTo,
                           SettledPayments settled) {
        this.eth = eth;
        this.payments = payments;
        this.token = token;
        this.payTo = payTo;
        this.settled = settled;
    }

    /**
     * Confirms the recorded payments settled in blocks up to {@code finalBlock} (the chain
     * listener's final block) from the token's logs: in the payment's transaction, the token's
     * {@code AuthorizationUsed(payer, nonce)} and its {@code Transfer} of exactly the amount from the
     * payer to {@code payTo}. A payment whose logs are not there (its block was replaced) stays
     * unconfirmed and is logged. Returns how many it confirmed.
     */
    int confirmFinal(Finality finality) {
        long finalBlock = finality.mode() == Finality.Mode.FINALIZED
                ? eth.block("finalized").map(BlockHeader::number).orElse(-1L)
                : eth.blockNumber() - finality.depth();
        return finalBlock < 0 ? 0 : confirmFinal(finalBlock);
    }

    /** As {@link #confirmFinal(Finality)}, with the final block given. */
    int confirmFinal(long finalBlock) {
        int confirmed = 0;
        Map<Long, List<Log>> logsByBlock = new HashMap<>();
        for (Row row : payments.unconfirmed(payTo, finalBlock, BATCH)) {
            PaymentRecord record = row.record();
            long block = row.blockNumber();
            List<Log> logs = logsByBlock.computeIfAbsent(block, b -> eth.logs(token, b, b)).stream()
                    .filter(l -> record.transaction().equalsIgnoreCase(l.getTransactionHash())).toList();
            Optional<Eip3009Token.AuthorizationUsed> used = Eip3009Token.authorizationsUsed(logs, token).stream()
                    .filter(u -> u.authorizer().equalsIgnoreCase(record.key().payer())
                            && u.nonce().equalsIgnoreCase(record.key().nonce()))
                    .findFirst();
            Optional<Eip3009Token.Transfer> transfer = Eip3009Token.transfers(logs, token).stream()
                    .filter(t -> t.from().equalsIgnoreCase(record.key().payer()) && t.to().equalsIgnoreCase(payTo)
                            && t.value().equals(record.amount()))
                    .findFirst();
            if (used.isEmpty() || transfer.isEmpty()) {
                log.warn("x402: block {} holds no settlement of payment {} in transaction {}", block, record.key(),
                        record.transaction());
                continue;
            }
            settled.confirmed(new X402PaymentConfirmed(record.key().payer(), record.key().nonce(), record.transaction(),
                    block, used.get().logIndex(), transfer.get().logIndex()));
            payments.markConfirmed(record.key());
            confirmed++;
        }
        return confirmed;
    }
}
