package io.chanledger.api.marketplace.gasstation;

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

    static GasStationReply disabled() {
        return refused(HttpStatus.SERVICE_UNAVAILABLE, "gas_station_disabled",
                "the gas station is not configured on this service");
    }

    static GasStationReply malformedBody(String error) {
        return refused(HttpStatus.BAD_REQUEST, "malformed_body", error);
    }

    static GasStationReply rateLimited(Duration wait) {
        return refused(HttpStatus.TOO_MANY_REQUESTS, "rate_limited",
                "too many gas station requests from this address; ask again later", Map.of(), wait);
    }

    /** All clients together have started as many transfers as the station allows for now. */
    static GasStationReply grantLimitReached(Duration wait) {
        return refused(HttpStatus.SERVICE_UNAVAILABLE, "grant_limit_reached",
                "the gas station has made as many grants as it may for now; nothing was sent, ask again later",
                Map.of(), wait);
    }

    static GasStationReply notAWallet() {
        return refused(HttpStatus.UNPROCESSABLE_ENTITY, "not_a_wallet",
                "the address holds contract code; the gas station pays wallets only, and nothing was sent");
    }

    static GasStationReply transferWouldFail(String why) {
        return refused(HttpStatus.UNPROCESSABLE_ENTITY, "transfer_would_fail",
                "a transfer of the grant to this address would fail (" + why + "); nothing was sent");
    }

    /** The request failed in a way none of the other answers describes. */
    static GasStationReply unavailable(Duration retryAfter) {
        return refused(HttpStatus.SERVICE_UNAVAILABLE, "gas_station_unavailable",
                "the gas station could not complete the request; ask again later", Map.of(), retryAfter);
    }

    static GasStationReply invalidAddress(String why) {
        return refused(HttpStatus.BAD_REQUEST, "invalid_address", "address: " + why);
    }

    static GasStationReply insufficientUsdc(BigInteger balance, BigInteger minimum) {
        return refused(HttpStatus.UNPROCESSABLE_ENTITY, "insufficient_usdc",
                "the wallet holds " + balance + " USDC base units; the gas station needs at least " + minimum,
                Map.of("balance", balance.toString(), "minimum", minimum.toString()), null);
    }

    static GasStationReply alreadyGranted(String txHash) {
        return refused(HttpStatus.CONFLICT, "already_granted",
                "this wallet has already received its gas grant", Map.of("txHash", txHash), null);
    }

    static GasStationReply grantPending(String txHash, Duration retryAfter) {
        return refused(HttpStatus.CONFLICT, "grant_pending",
                "a gas grant to this wallet is in progress; ask again later", txHashIfAny(txHash), retryAfter);
    }

    static GasStationReply faucetEmpty(Duration retryAfter) {
        return refused(HttpStatus.SERVICE_UNAVAILABLE, "faucet_empty",
                "the gas station's faucet cannot pay a grant right now", Map.of(), retryAfter);
    }

    /** {@code txHash} null when nothing was sent. */
    static GasStationReply rpcUnavailable(String txHash, Duration retryAfter) {
        return refused(HttpStatus.SERVICE_UNAVAILABLE, "rpc_unavailable",
                "the chain node is unavailable" + (txHash == null ? "; nothing was sent"
                        : "; the transfer may have been sent and is settled when the node answers again"),
                txHashIfAny(txHash), retryAfter);
    }

    static GasStationReply transferRefused(Duration retryAfter) {
        return refused(HttpStatus.SERVICE_UNAVAILABLE, "transfer_refused",
                "the node refused the transfer; nothing was sent", Map.of(), retryAfter);
    }

    static GasStationReply transferReverted(String txHash) {
        return refused(HttpStatus.UNPROCESSABLE_ENTITY, "transfer_reverted",
                "the transfer to the wallet reverted (a contract that refuses POL?); no POL arrived",
                Map.of("txHash", txHash), null);
    }

    static GasStationReply transferUnconfirmed(String txHash, Duration retryAfter) {
        return refused(HttpStatus.SERVICE_UNAVAILABLE, "transfer_unconfirmed",
                "the transfer was sent but is not mined yet; ask again later", Map.of("txHash", txHash), retryAfter);
    }

    /**
     * Whether POL may have gone to the wallet with this answer: a grant, or a transfer that was
     * sent and whose outcome is not known yet. What counts against the budget of all grants.
     */
    boolean mayHavePaid() {
        return switch (code) {
            case "granted", "transfer_unconfirmed" -> true;
            case "rpc_unavailable" -> body.containsKey("txHash");
            default -> false;
        };
    }

    private static Map<String, Object> txHashIfAny(String txHash) {
        return txHash == null ? Map.of() : Map.of("txHash", txHash);
    }

    /** Retry-After in whole seconds, at least one. */
    String retryAfterSeconds() {
        long millis = retryAfter.toMillis();
        return Long.toString(Math.max(1, (millis + 999) / 1000));
    }
}
