package io.chanledger.api.audit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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

/**
 * Verifies an NDJSON export offline, with nothing but the signing domain (chain id, contract) and
 * the protocol fee: every voucher signature again under the contract's own rule, every close
 * authorization, and each channel's invariants — events in sequence, opened first, nothing after
 * the close; vouchers strictly increasing in amount and nonce and within the deposit; claims
 * increasing, never above the highest voucher nor the deposit, each fee = payout × bps / 10000
 * rounded down; the refund = deposit − final claimed. Signatures are checked in parallel batches,
 * the rest in export order.
 */
public final class ExportVerifier {

    private static final int SIGNATURE_BATCH = 4_096;
    private static final BigInteger BPS = BigInteger.valueOf(10_000);
    private static final String CHANNEL_PACKAGE = "io.chanledger.domain.channel.";

    private final ChanTypedData typedData;
    private final BigInteger feeBps;
    private final ObjectMapper json = new ObjectMapper();

    public ExportVerifier(long chainId, String contract, int feeBps) {
        this.typedData = new ChanTypedData(Eip712Domain.chan(chainId, contract));
        this.feeBps = BigInteger.valueOf(feeBps);
    }

    /** What the verification saw, and every violation, in export order. */
    public record Report(long lines, long channelEvents, long channels, long signatures, List<Finding> findings) {
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
        return new Report(run.lineNumber, run.channelEvents, run.channels.size(), run.signatures, run.findings);
    }

    private static final class Channel {
        String consumer;
        String provider;
        BigInteger deposit = BigInteger.ZERO;
        BigInteger highest = BigInteger.ZERO;
        BigInteger nonce;
        BigInteger claimed = BigInteger.ZERO;
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
                if (isChannelEvent(event.path("payloadType").asText(""), type)) {
                    channelEvents++;
                    channelEvent(type, event.path("sequence").asLong(-1), event.path("payload"));
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
            if (channel.closed) {
                find("event_after_close", type + " after the channel was closed");
            }
            switch (type) {
                case "ChannelOpenConfirmed" -> terms(channel, p);
                case "VoucherAccepted" -> voucher(channel, p);
                case "ChannelClaimed" -> claim(channel, p);
                case "ChannelClosed" -> close(channel, p);
                case "CloseAuthorized" -> closeAuthorization(channel, p);
                default -> {
                    // ChannelExpired: nothing to check beyond its place in the sequence
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
            if (amount.compareTo(channel.highest) <= 0) {
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
            BigInteger expectedFee = payout.multiply(feeBps).divide(BPS);
            if (!fee.equals(expectedFee)) {
                find("fee_mismatch", "fee " + fee + " on a payout of " + payout + ", expected " + expectedFee);
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
        return payloadType.equals(CHANNEL_PACKAGE + type) && switch (type) {
            case "ChannelOpened", "ChannelOpenConfirmed", "VoucherAccepted", "ChannelClaimed", "ChannelExpired",
                 "ChannelClosed", "CloseAuthorized" -> true;
            default -> false;
        };
    }
}
