package io.chanledger.api.audit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chanledger.domain.chain.ChainRef;
import io.chanledger.domain.channel.ChannelEvent;
import io.chanledger.domain.contract.ContractSettings;
import io.chanledger.domain.contract.FeeUpdated;
import io.chanledger.domain.contract.UsdcUpdated;
import io.chanledger.domain.eip712.ChanTypedData;
import io.chanledger.domain.eip712.ContractSignatureRule;
import io.chanledger.domain.eip712.Eip712Domain;
import io.chanledger.domain.eip712.Hex;
import io.chanledger.domain.eip712.SignatureVerdict;
import java.io.BufferedReader;
import java.io.IOException;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

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
 */
public final class ExportVerifier {

    private static final int SIGNATURE_BATCH = 4_096;
    private static final String CHANNEL_PACKAGE = ChannelEvent.class.getPackageName() + ".";
    /** The simple names of the channel events, from their one list. */
    private static final Set<String> CHANNEL_EVENT_TYPES = ChannelEvent.TYPES.stream().map(Class::getSimpleName)
            .collect(Collectors.toUnmodifiableSet());
    private static final String CONTRACT_PACKAGE = "io.chanledger.domain.contract.";

    private final ChanTypedData typedData;
    private final String contractId;
    private final BigInteger startingFeeBps;
    private final ObjectMapper json = new ObjectMapper();

    /** {@code startingFeeBps}: the fee in force before the first {@code FeeUpdated} of the contract in the export. */
    public ExportVerifier(long chainId, String contract, int startingFeeBps) {
        this.typedData = new ChanTypedData(Eip712Domain.chan(chainId, contract));
        this.contractId = ContractSettings.idOf(chainId, contract);
        this.startingFeeBps = BigInteger.valueOf(startingFeeBps);
    }

    /** What the verification saw, and every violation, in export order. */
    public record Report(long lines, long channelEvents, long channels, long signatures, long feeUpdates,
                         List<Finding> findings) {
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
                run.contract.feeUpdates().size(), run.findings);
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

    /** A signature to check: who must have signed which digest. */
    private record SignatureCheck(long line, long globalIndex, String channelId, byte[] digest, String signature,
                                  String expectedSigner, String code, String what) {
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
        long globalIndex;
        String channelId;

        void line(String text) {
            lineNumber++;
            if (text.isBlank()) {
                return;
            }
            try {
                JsonNode event = json.readTree(text);
                globalIndex = event.path("globalIndex").asLong();
                channelId = event.path("aggregateId").asText(null);
                if (globalIndex <= lastGlobalIndex) {
                    find("global_index_not_increasing", "event " + globalIndex + " follows event " + lastGlobalIndex);
                }
                lastGlobalIndex = Math.max(lastGlobalIndex, globalIndex);
                String type = event.path("type").asText("");
                String payloadType = event.path("payloadType").asText("");
                if (isChannelEvent(payloadType, type)) {
                    channelEvents++;
                    channelEvent(type, event.path("sequence").asLong(-1), event.path("payload"));
                } else if (contractId.equals(channelId) && payloadType.equals(CONTRACT_PACKAGE + type)) {
                    contractEvent(type, event.path("payload"));
                }
            } catch (IOException | RuntimeException e) {
                find("malformed_event", "not an event of an export: " + e.getMessage());
            }
        }

        private void channelEvent(String type, long sequence, JsonNode p) {
            Channel channel = channels.get(channelId);
            if (type.equals("ChannelOpened")) {
                if (channel != null) {
                    find("duplicate_open", "the channel was opened before");
                    return;
                }
                channel = new Channel();
                channels.put(channelId, channel);
                terms(channel, p);
                channel.claimed = p.hasNonNull("claimedAtOpen") ? uint(p, "claimedAtOpen") : BigInteger.ZERO;
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
            if (channel.closed && !type.equals("RequestSettled") && !type.equals("HoldRaised")
                    && !type.equals("ExcessReturned")) {
                find("event_after_close", type + " after the channel was closed");
            }
            switch (type) {
                case "ChannelOpenConfirmed" -> terms(channel, p);
                case "VoucherAccepted" -> voucher(channel, p);
                case "RequestSettled" -> settlement(channel, p);
                case "ChannelClaimed" -> claim(channel, p);
                case "ChannelClosed" -> close(channel, p);
                case "CloseAuthorized" -> closeAuthorization(channel, p);
                case "ExcessReturned" -> excessReturn(channel, p);
                default -> {
                    // ChannelExpired, HoldRaised: nothing to check beyond their place in the sequence
                }
            }
        }

        /** The contract's fee and token changes: the fee in force at each later claim follows them. */
        private void contractEvent(String type, JsonNode p) throws IOException {
            switch (type) {
                case "FeeUpdated" -> contract = contract.with(json.treeToValue(p, FeeUpdated.class));
                case "UsdcUpdated" -> contract = contract.with(json.treeToValue(p, UsdcUpdated.class));
                default -> {
                    // a settings event this verifier does not know changes nothing it checks
                }
            }
        }

        private void terms(Channel channel, JsonNode p) {
            channel.consumer = Hex.normalizeAddress(p.path("consumer").asText());
            channel.provider = Hex.normalizeAddress(p.path("provider").asText());
            channel.deposit = uint(p, "deposit");
        }

        private void sequence(Channel channel, long sequence) {
            if (sequence != channel.lastSequence + 1) {
                find(sequence <= channel.lastSequence ? "sequence_not_increasing" : "sequence_gap",
                        "sequence " + sequence + " follows " + channel.lastSequence);
            }
            channel.lastSequence = Math.max(channel.lastSequence, sequence);
        }

        private void voucher(Channel channel, JsonNode p) {
            BigInteger amount = uint(p, "amount");
            BigInteger nonce = uint(p, "nonce");
            // a metered voucher pays for one request and may repeat the highest amount while the
            // consumer's earlier buffer covers the request
            boolean metered = p.hasNonNull("hold");
            if (metered ? amount.compareTo(channel.highest) < 0 : amount.compareTo(channel.highest) <= 0) {
                find("voucher_amount_not_increasing", "amount " + amount + " after " + channel.highest);
            }
            if (channel.nonce != null && nonce.compareTo(channel.nonce) <= 0) {
                find("voucher_nonce_not_increasing", "nonce " + nonce + " after " + channel.nonce);
            }
            if (amount.compareTo(channel.deposit) > 0) {
                find("voucher_exceeds_deposit", "amount " + amount + " above the deposit " + channel.deposit);
            }
            if (p.hasNonNull("increment") && !uint(p, "increment").equals(amount.subtract(channel.highest))) {
                find("voucher_increment_mismatch", "increment " + uint(p, "increment") + " but the amount rose by "
                        + amount.subtract(channel.highest));
            }
            pending.add(new SignatureCheck(lineNumber, globalIndex, channelId,
                    typedData.voucherDigest(Hex.decode(channelId), amount, nonce), p.path("signature").asText(),
                    channel.consumer, "voucher_signature_invalid", "the voucher"));
            channel.highest = amount.max(channel.highest);
            channel.nonce = channel.nonce == null ? nonce : nonce.max(channel.nonce);
            if (pending.size() >= SIGNATURE_BATCH) {
                checkSignatures();
            }
        }

        private void settlement(Channel channel, JsonNode p) {
            BigInteger cost = uint(p, "cost");
            BigInteger charged = uint(p, "charged");
            BigInteger total = uint(p, "chargedTotal");
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

        private void claim(Channel channel, JsonNode p) {
            BigInteger payout = uint(p, "payout");
            BigInteger fee = uint(p, "fee");
            BigInteger total = uint(p, "totalClaimed");
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
            BigInteger feeBps = contract.feeBpsAt(chainRef(p));
            BigInteger expectedFee = ContractSettings.feeOn(payout, feeBps);
            if (!fee.equals(expectedFee)) {
                find("fee_mismatch", "fee " + fee + " on a payout of " + payout + ", expected " + expectedFee
                        + " at the fee of " + feeBps + " bps in force");
            }
            channel.claimed = total.max(channel.claimed);
        }

        private void close(Channel channel, JsonNode p) {
            BigInteger refund = uint(p, "refund");
            BigInteger expected = channel.deposit.subtract(channel.claimed);
            if (!refund.equals(expected)) {
                find("refund_mismatch", "refund " + refund + ", but deposit − claimed is " + expected);
            }
            channel.closed = true;
        }

        /** The provider gives back at most what the chain paid above the charged total: claimed − returned ≥ charged. */
        private void excessReturn(Channel channel, JsonNode p) {
            BigInteger amount = uint(p, "amount");
            BigInteger returned = channel.returned.add(amount);
            if (amount.signum() <= 0 || channel.claimed.subtract(returned).compareTo(channel.charged) < 0) {
                find("return_above_excess", "returned " + returned + " in all, but claimed " + channel.claimed
                        + " − charged " + channel.charged + " is less");
            }
            channel.returned = returned;
        }

        private void closeAuthorization(Channel channel, JsonNode p) {
            BigInteger finalAmount = uint(p, "finalAmount");
            if (finalAmount.compareTo(channel.claimed) < 0 || finalAmount.compareTo(channel.deposit) > 0) {
                find("close_authorization_out_of_range", "final amount " + finalAmount + " outside claimed "
                        + channel.claimed + " .. deposit " + channel.deposit);
            }
            pending.add(new SignatureCheck(lineNumber, globalIndex, channelId,
                    typedData.closeAuthorizationDigest(Hex.decode(channelId), finalAmount),
                    p.path("providerSignature").asText(), channel.provider, "close_authorization_signature_invalid",
                    "the close authorization"));
        }

        void checkSignatures() {
            signatures += pending.size();
            List<Finding> found = pending.parallelStream().map(ExportVerifier::judge)
                    .filter(f -> f != null).toList();
            findings.addAll(found);
            pending.clear();
        }

        private ChainRef chainRef(JsonNode p) {
            if (!p.path("chainRef").isObject()) {
                throw new IllegalArgumentException("the claim carries no chain ref");
            }
            try {
                return json.treeToValue(p.path("chainRef"), ChainRef.class);
            } catch (IOException e) {
                throw new IllegalArgumentException("the claim's chain ref does not read: " + e.getMessage(), e);
            }
        }

        private BigInteger uint(JsonNode p, String field) {
            JsonNode node = p.path(field);
            if (node.isTextual()) {
                return new BigInteger(node.textValue());
            }
            if (node.isIntegralNumber()) {
                return node.bigIntegerValue();
            }
            throw new IllegalArgumentException(field + " is not a uint256");
        }

        private void find(String code, String detail) {
            findings.add(new Finding(lineNumber, globalIndex, channelId, code, detail));
        }
    }

    private static Finding judge(SignatureCheck check) {
        byte[] signature;
        try {
            signature = Hex.decode(check.signature());
        } catch (IllegalArgumentException e) {
            return finding(check, "the signature is not hex: " + e.getMessage());
        }
        SignatureVerdict verdict = ContractSignatureRule.recover(check.digest(), signature);
        if (verdict instanceof SignatureVerdict.Rejected(var reason)) {
            return finding(check, "the contract would refuse the signature of " + check.what() + " (" + reason.code() + ")");
        }
        String signer = ((SignatureVerdict.Recovered) verdict).signer();
        if (!signer.equals(check.expectedSigner())) {
            return finding(check, check.what() + " is signed by " + signer + ", not by " + check.expectedSigner());
        }
        return null;
    }

    private static Finding finding(SignatureCheck check, String detail) {
        return new Finding(check.line(), check.globalIndex(), check.channelId(), check.code(), detail);
    }

    private static boolean isChannelEvent(String payloadType, String type) {
        return payloadType.equals(CHANNEL_PACKAGE + type) && CHANNEL_EVENT_TYPES.contains(type);
    }
}
