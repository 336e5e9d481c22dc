package io.chanledger.api.ledger.audit;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.chanledger.domain.channel.ChannelClaimed;
import io.chanledger.domain.channel.ChannelClosed;
import io.chanledger.domain.channel.ChannelEvent;
import io.chanledger.domain.channel.ChannelExpired;
import io.chanledger.domain.channel.ChannelOpenConfirmed;
import io.chanledger.domain.channel.ChannelOpened;
import io.chanledger.domain.channel.CloseAuthorized;
import io.chanledger.domain.channel.ExcessReturned;
import io.chanledger.domain.channel.HoldRaised;
import io.chanledger.domain.channel.RequestSettled;
import io.chanledger.domain.channel.VoucherAccepted;
import io.chanledger.domain.contract.ContractSettings;
import io.chanledger.domain.contract.FeeUpdated;
import io.chanledger.domain.contract.UsdcUpdated;
import io.chanledger.domain.eip712.ChanTypedData;
import io.chanledger.domain.eip712.Eip712Domain;
import io.chanledger.domain.eip712.Hex;
import io.chanledger.domain.x402.X402PaymentSettled;
import io.chanledger.projections.rebuild.ChannelEventDecoder;
import java.io.BufferedReader;
import java.io.IOException;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Verifies an NDJSON export offline, with nothing but the signing domain (chain id, contract) and
 * the protocol fee before the contract's first recorded fee change: every voucher signature again
 * under the contract's own rule, every close authorization, and each channel's invariants — events
 * in sequence, opened first, nothing but request settlements and returns after the close; vouchers increasing
 * in amount (a metered voucher may repeat the highest amount) and strictly in nonce, within the
 * deposit; requests charged at most their cost, the charged total never above the highest voucher;
 * claims increasing, never above the highest voucher nor the deposit, each fee = payout × bps /
 * 10000 rounded down at the fee in force at the claim (the contract's {@code FeeUpdated} events in
 * the export, {@link ContractSettings}); the refund = deposit − final claimed; returns to the
 * consumer never more than claimed − charged. Signatures are
 * checked in parallel batches, the rest in export order.
 *
 * <p>Payloads are read as the service reads them: with the event store's mapper, channel events
 * through the rebuild's {@link ChannelEventDecoder} into the sealed {@link ChannelEvent} records,
 * which the checks switch over exhaustively, so that a new channel event does not compile until
 * the auditor handles it. The checks are the auditor's own: they fold nothing with the
 * aggregate's {@code ChannelState} nor its voucher rules, so a fault there is not repeated here.
 */
public final class ExportVerifier {

    private static final int SIGNATURE_BATCH = 4_096;
    private static final String CHANNEL_PACKAGE = ChannelEvent.class.getPackageName() + ".";
    private static final String CONTRACT_PACKAGE = "io.chanledger.domain.contract.";

    private final ChanTypedData typedData;
    private final String contractId;
    private final BigInteger startingFeeBps;
    private final ObjectMapper mapper;
    private final ChannelEventDecoder decoder;
    private final X402Transfers x402Chain;

    /**
     * {@code startingFeeBps}: the fee in force before the first {@code FeeUpdated} of the contract
     * in the export; {@code eventMapper}: the event store's mapper, which wrote the payloads.
     */
    public ExportVerifier(long chainId, String contract, int startingFeeBps, ObjectMapper eventMapper) {
        this(chainId, contract, startingFeeBps, eventMapper, null);
    }

    /**
     * As above, and each x402 payment of the export reconciled against {@code x402Chain}: its
     * transaction must show the token's {@code Transfer} of exactly its amount from its payer to
     * its provider. Null: x402 payments are checked within the export only.
     */
    public ExportVerifier(long chainId, String contract, int startingFeeBps, ObjectMapper eventMapper,
                          X402Transfers x402Chain) {
        this.x402Chain = x402Chain;
        this.mapper = eventMapper;
        this.decoder = new ChannelEventDecoder(eventMapper);
        this.typedData = new ChanTypedData(Eip712Domain.chan(chainId, contract));
        this.contractId = ContractSettings.idOf(chainId, contract);
        this.startingFeeBps = BigInteger.valueOf(startingFeeBps);
    }

    /** What the verification saw, and every violation, in export order. */
    public record Report(long lines, long channelEvents, long channels, long signatures, long feeUpdates,
                         long x402Payments, long x402Reconciled, List<Finding> findings) {
        public boolean clean() {
            return findings.isEmpty();
        }
    }

    public Report verify(BufferedReader lines, ProgressMeter progress) throws IOException {
        Run run = new Run();
        String line;
        long bytes = 0;
        while ((line = lines.readLine()) != null) {
            bytes += line.length() + 1;
            run.line(line);
            if (progress != null) {
                progress.update(bytes, run.lineNumber);
            }
        }
        run.checkSignatures();
        if (progress != null) {
            progress.finish(run.lineNumber);
        }
        run.findings.sort(Comparator.comparingLong(Finding::line));
        return new Report(run.lineNumber, run.channelEvents, run.channels.size(), run.signatures,
                run.contract.feeUpdates().size(), run.x402.payments(), run.x402.reconciled(), run.findings);
    }

    private static final class Channel {
        String consumer;
        String provider;
        BigInteger deposit = BigInteger.ZERO;
        BigInteger highest = BigInteger.ZERO;
        BigInteger nonce;
        BigInteger claimed = BigInteger.ZERO;
        BigInteger charged = BigInteger.ZERO;
        BigInteger returned = BigInteger.ZERO;
        long lastSequence = -1;
        boolean closed;
    }

    private final class Run {
        final List<Finding> findings = new ArrayList<>();
        final Map<String, Channel> channels = new HashMap<>();
        final List<SignatureCheck> pending = new ArrayList<>();
        ContractSettings contract = ContractSettings.starting(startingFeeBps, null);
        long lineNumber;
        long channelEvents;
        long signatures;
        long lastGlobalIndex = Long.MIN_VALUE;
        final X402PaymentCheck x402 = new X402PaymentCheck(x402Chain, this::find);
        long globalIndex;
        String channelId;

        void line(String text) {
            lineNumber++;
            if (text.isBlank()) {
                return;
            }
            try {
                ExportLine event = ExportLine.read(text, mapper);
                globalIndex = event.globalIndex();
                channelId = event.aggregateId();
                if (globalIndex <= lastGlobalIndex) {
                    find("global_index_not_increasing", "event " + globalIndex + " follows event " + lastGlobalIndex);
                }
                lastGlobalIndex = Math.max(lastGlobalIndex, globalIndex);
                String type = event.type();
                String payloadType = event.payloadType();
                if (isChannelEvent(payloadType, type)) {
                    channelEvents++;
                    channelEvent(event.sequence(), decoder.decode(payloadType, event.payloadObject(), channelId));
                } else if (contractId.equals(channelId) && payloadType.equals(CONTRACT_PACKAGE + type)) {
                    contractEvent(type, event.payloadObject());
                } else if (payloadType.equals(X402PaymentSettled.class.getName())) {
                    x402.payment(channelId, event.sequence(), mapper.readValue(event.payloadObject(), X402PaymentSettled.class));
                }
            } catch (IOException | RuntimeException e) {
                find("malformed_event", "not an event of an export: " + e.getMessage());
            }
        }

        private void channelEvent(long sequence, ChannelEvent event) {
            String type = event.getClass().getSimpleName();
            Channel channel = channels.get(channelId);
            if (event instanceof ChannelOpened opened) {
                if (channel != null) {
                    find("duplicate_open", "the channel was opened before");
                    return;
                }
                channel = new Channel();
                channels.put(channelId, channel);
                terms(channel, opened.consumer(), opened.provider(), opened.deposit());
                channel.claimed = opened.claimedAtOpen() != null ? opened.claimedAtOpen() : BigInteger.ZERO;
                sequence(channel, sequence);
                return;
            }
            if (channel == null) {
                find("channel_not_opened", type + " of a channel the export never opened");
                return;
            }
            sequence(channel, sequence);
            // a request running when the close was recorded is still settled: what it cost is a
            // fact of the ledger, even though it can no longer be claimed
            if (channel.closed && !(event instanceof RequestSettled || event instanceof HoldRaised
                    || event instanceof ExcessReturned)) {
                find("event_after_close", type + " after the channel was closed");
            }
            // no default: a new channel event does not compile until the auditor says what it checks of it
            switch (event) {
                case ChannelOpened opened -> throw new IllegalStateException("handled above");
                case ChannelOpenConfirmed confirmed ->
                        terms(channel, confirmed.consumer(), confirmed.provider(), confirmed.deposit());
                case VoucherAccepted voucher -> voucher(channel, voucher);
                case RequestSettled settled -> settlement(channel, settled);
                case ChannelClaimed claimed -> claim(channel, claimed);
                case ChannelClosed closed -> close(channel, closed);
                case CloseAuthorized authorized -> closeAuthorization(channel, authorized);
                case ExcessReturned returned -> excessReturn(channel, returned);
                case ChannelExpired expired -> {
                    // nothing to check beyond its place in the sequence
                }
                case HoldRaised raised -> {
                    // nothing to check beyond its place in the sequence
                }
            }
        }

        /** The contract's fee and token changes: the fee in force at each later claim follows them. */
        private void contractEvent(String type, byte[] payload) throws IOException {
            switch (type) {
                case "FeeUpdated" -> contract = contract.with(mapper.readValue(payload, FeeUpdated.class));
                case "UsdcUpdated" -> contract = contract.with(mapper.readValue(payload, UsdcUpdated.class));
                default -> {
                    // a settings event this verifier does not know changes nothing it checks
                }
            }
        }

        private void terms(Channel channel, String consumer, String provider, BigInteger deposit) {
            channel.consumer = Hex.normalizeAddress(required(consumer, "consumer"));
            channel.provider = Hex.normalizeAddress(required(provider, "provider"));
            channel.deposit = required(deposit, "deposit");
        }

        private void sequence(Channel channel, long sequence) {
            if (sequence != channel.lastSequence + 1) {
                find(sequence <= channel.lastSequence ? "sequence_not_increasing" : "sequence_gap",
                        "sequence " + sequence + " follows " + channel.lastSequence);
            }
            channel.lastSequence = Math.max(channel.lastSequence, sequence);
        }

        private void voucher(Channel channel, VoucherAccepted voucher) {
            BigInteger amount = required(voucher.amount(), "amount");
            BigInteger nonce = required(voucher.nonce(), "nonce");
            // a metered voucher pays for one request and may repeat the highest amount while the
            // consumer's earlier buffer covers the request
            boolean metered = voucher.hold() != null;
            if (metered ? amount.compareTo(channel.highest) < 0 : amount.compareTo(channel.highest) <= 0) {
                find("voucher_amount_not_increasing", "amount " + amount + " after " + channel.highest);
            }
            if (channel.nonce != null && nonce.compareTo(channel.nonce) <= 0) {
                find("voucher_nonce_not_increasing", "nonce " + nonce + " after " + channel.nonce);
            }
            if (amount.compareTo(channel.deposit) > 0) {
                find("voucher_exceeds_deposit", "amount " + amount + " above the deposit " + channel.deposit);
            }
            if (voucher.increment() != null && !voucher.increment().equals(amount.subtract(channel.highest))) {
                find("voucher_increment_mismatch", "increment " + voucher.increment() + " but the amount rose by "
                        + amount.subtract(channel.highest));
            }
            pending.add(new SignatureCheck(lineNumber, globalIndex, channelId,
                    typedData.voucherDigest(Hex.decode(channelId), amount, nonce),
                    Objects.requireNonNullElse(voucher.signature(), ""), channel.consumer,
                    "voucher_signature_invalid", "the voucher"));
            channel.highest = amount.max(channel.highest);
            channel.nonce = channel.nonce == null ? nonce : nonce.max(channel.nonce);
            if (pending.size() >= SIGNATURE_BATCH) {
                checkSignatures();
            }
        }

        private void settlement(Channel channel, RequestSettled settled) {
            BigInteger cost = required(settled.cost(), "cost");
            BigInteger charged = required(settled.charged(), "charged");
            BigInteger total = required(settled.chargedTotal(), "chargedTotal");
            if (charged.signum() < 0 || charged.compareTo(cost) > 0) {
                find("charge_above_cost", "charged " + charged + " for a request that cost " + cost);
            }
            if (!total.equals(channel.charged.add(charged))) {
                find("charge_total_mismatch", "charged total " + total + " is not " + channel.charged + " + "
                        + charged);
            }
            if (total.compareTo(channel.highest) > 0) {
                find("charge_above_voucher", "charged " + total + " in all, above the highest voucher "
                        + channel.highest);
            }
            channel.charged = total;
        }

        private void claim(Channel channel, ChannelClaimed claimed) {
            BigInteger payout = required(claimed.payout(), "payout");
            BigInteger fee = required(claimed.fee(), "fee");
            BigInteger total = required(claimed.totalClaimed(), "totalClaimed");
            if (payout.signum() <= 0 || total.compareTo(channel.claimed) <= 0) {
                find("claim_not_increasing", "claim to " + total + " with payout " + payout + " after "
                        + channel.claimed + " claimed");
            } else if (!total.equals(channel.claimed.add(payout))) {
                find("claim_total_mismatch", "total " + total + " is not " + channel.claimed + " + payout " + payout);
            }
            if (total.compareTo(channel.highest) > 0) {
                find("claim_above_voucher", "claimed " + total + " above the highest voucher " + channel.highest);
            }
            if (total.compareTo(channel.deposit) > 0) {
                find("claim_exceeds_deposit", "claimed " + total + " above the deposit " + channel.deposit);
            }
            if (claimed.chainRef() == null) {
                throw new IllegalArgumentException("the claim carries no chain ref");
            }
            BigInteger feeBps = contract.feeBpsAt(claimed.chainRef());
            BigInteger expectedFee = ContractSettings.feeOn(payout, feeBps);
            if (!fee.equals(expectedFee)) {
                find("fee_mismatch", "fee " + fee + " on a payout of " + payout + ", expected " + expectedFee
                        + " at the fee of " + feeBps + " bps in force");
            }
            channel.claimed = total.max(channel.claimed);
        }

        private void close(Channel channel, ChannelClosed closed) {
            BigInteger refund = required(closed.refund(), "refund");
            BigInteger expected = channel.deposit.subtract(channel.claimed);
            if (!refund.equals(expected)) {
                find("refund_mismatch", "refund " + refund + ", but deposit − claimed is " + expected);
            }
            channel.closed = true;
        }

        /** The provider gives back at most what the chain paid above the charged total: claimed − returned ≥ charged. */
        private void excessReturn(Channel channel, ExcessReturned excess) {
            BigInteger amount = required(excess.amount(), "amount");
            BigInteger returned = channel.returned.add(amount);
            if (amount.signum() <= 0 || channel.claimed.subtract(returned).compareTo(channel.charged) < 0) {
                find("return_above_excess", "returned " + returned + " in all, but claimed " + channel.claimed
                        + " − charged " + channel.charged + " is less");
            }
            channel.returned = returned;
        }

        private void closeAuthorization(Channel channel, CloseAuthorized authorized) {
            BigInteger finalAmount = required(authorized.finalAmount(), "finalAmount");
            if (finalAmount.compareTo(channel.claimed) < 0 || finalAmount.compareTo(channel.deposit) > 0) {
                find("close_authorization_out_of_range", "final amount " + finalAmount + " outside claimed "
                        + channel.claimed + " .. deposit " + channel.deposit);
            }
            pending.add(new SignatureCheck(lineNumber, globalIndex, channelId,
                    typedData.closeAuthorizationDigest(Hex.decode(channelId), finalAmount),
                    Objects.requireNonNullElse(authorized.providerSignature(), ""), channel.provider,
                    "close_authorization_signature_invalid", "the close authorization"));
        }

        void checkSignatures() {
            signatures += pending.size();
            List<Finding> found = pending.parallelStream().map(SignatureCheck::judge)
                    .filter(f -> f != null).toList();
            findings.addAll(found);
            pending.clear();
        }

        private void find(String code, String detail) {
            findings.add(new Finding(lineNumber, globalIndex, channelId, code, detail));
        }
    }

    /** A field every event of its type carries; the mapper leaves a missing one null. */
    static <T> T required(T value, String field) {
        if (value == null) {
            throw new IllegalArgumentException(field + " is missing");
        }
        return value;
    }

    /** A channel event whose envelope names it consistently: its type is its payload type's simple name. */
    private boolean isChannelEvent(String payloadType, String type) {
        return decoder.decodes(payloadType) && payloadType.equals(CHANNEL_PACKAGE + type);
    }
}
