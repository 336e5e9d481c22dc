package io.chanledger.api.gasstation;

import io.chanledger.domain.eip712.Hex;
import java.math.BigInteger;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.http.HttpStatus;

/**
 * An answer of the gas station: {@code {success:true, txHash, amount, address}} or
 * {@code {success:false, error, code, ...}}, with {@code Retry-After} where asking again later helps.
 * Amounts are decimal strings (wei for the grant, base units for USDC).
 */
record GasStationReply(HttpStatus status, String code, Map<String, Object> body, Duration retryAfter) {

    static GasStationReply granted(String wallet, String txHash, BigInteger amount) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("success", true);
        body.put("txHash", txHash);
        body.put("amount", amount.toString());
        body.put("address", Hex.toChecksumAddress(wallet));
        return new GasStationReply(HttpStatus.OK, "granted", body, null);
    }

    static GasStationReply refused(HttpStatus status, String code, String error) {
        return refused(status, code, error, Map.of(), null);
    }

    static GasStationReply refused(HttpStatus status, String code, String error, Map<String, Object> details,
                                   Duration retryAfter) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("success", false);
        body.put("error", error);
        body.put("code", code);
        details.forEach((key, value) -> {
            if (value != null) {
                body.put(key, value);
            }
        });
        return new GasStationReply(status, code, body, retryAfter);
    }

    /** Retry-After in whole seconds, at least one. */
    String retryAfterSeconds() {
        long millis = retryAfter.toMillis();
        return Long.toString(Math.max(1, (millis + 999) / 1000));
    }
}
