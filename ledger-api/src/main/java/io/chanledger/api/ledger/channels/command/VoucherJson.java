package io.chanledger.api.ledger.channels.command;

import com.fasterxml.jackson.databind.JsonNode;
import io.chanledger.domain.channel.SignedVoucher;
import io.chanledger.domain.channel.VoucherRejectedException;
import io.chanledger.domain.channel.VoucherRejection;

/**
 * Reads an {@code X-CHAN-Voucher} object into a {@link SignedVoucher} at the HTTP edge: the one
 * parse of a voucher, after which nothing checks its form again. Amount and nonce are decimal
 * strings by the protocol; plain JSON integers are accepted too (read exactly, never as doubles),
 * anything else is an invalid format.
 */
public final class VoucherJson {

    private VoucherJson() {
    }

    /**
     * The voucher in {@code body}. {@code pathChannelId} is the channel the URL names (null when
     * none does): then the object may leave its channelId out, and must name the same channel when
     * it gives one; without it, the object must name its channel.
     */
    public static SignedVoucher parse(JsonNode body, String pathChannelId) {
        if (body == null || !body.isObject()) {
            throw invalid("the voucher must be a JSON object with channelId, amount, nonce and signature");
        }
        String channelId = text(body, "channelId", false);
        String amount = decimal(body, "amount");
        String nonce = decimal(body, "nonce");
        String signature = text(body, "signature", true);
        if (pathChannelId == null && channelId == null) {
            throw invalid("channelId is missing");
        }
        if (pathChannelId != null && channelId != null && !channelId.equalsIgnoreCase(pathChannelId)) {
            throw invalid("the voucher's channelId differs from the channel in the path");
        }
        return SignedVoucher.parse(pathChannelId != null ? pathChannelId : channelId, amount, nonce, signature);
    }

    private static String text(JsonNode body, String field, boolean required) {
        JsonNode node = body.get(field);
        if (node == null || node.isNull()) {
            if (required) {
                throw invalid(field + " is missing");
            }
            return null;
        }
        if (!node.isTextual()) {
            throw invalid(field + " must be a string");
        }
        return node.textValue();
    }

    private static String decimal(JsonNode body, String field) {
        JsonNode node = body.get(field);
        if (node == null || node.isNull()) {
            throw invalid(field + " is missing");
        }
        if (node.isTextual()) {
            return node.textValue();
        }
        if (node.isIntegralNumber()) {
            return node.bigIntegerValue().toString();
        }
        throw invalid(field + " must be a decimal string of a uint256");
    }

    private static VoucherRejectedException invalid(String detail) {
        return new VoucherRejectedException(VoucherRejection.INVALID_VOUCHER_FORMAT, detail);
    }
}
