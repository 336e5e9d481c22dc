package io.chanledger.api.ledger;

import com.fasterxml.jackson.databind.JsonNode;
import io.chanledger.domain.channel.VoucherRejectedException;
import io.chanledger.domain.channel.VoucherRejection;

/**
 * The four fields of an {@code X-CHAN-Voucher} object, as text. Amount and nonce are decimal
 * strings by the protocol; plain JSON integers are accepted too (read exactly, never as doubles),
 * anything else is an invalid format.
 */
public record VoucherFields(String channelId, String amount, String nonce, String signature) {

    public static VoucherFields of(JsonNode body) {
        if (body == null || !body.isObject()) {
            throw invalid("the voucher must be a JSON object with channelId, amount, nonce and signature");
        }
        return new VoucherFields(text(body, "channelId", false), decimal(body, "amount"), decimal(body, "nonce"),
                text(body, "signature", true));
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
