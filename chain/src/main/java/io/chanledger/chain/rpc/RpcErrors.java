package io.chanledger.chain.rpc;

import java.util.Locale;
import java.util.regex.Pattern;
import org.web3j.protocol.core.Response;

/**
 * Sorts node answers into transient, range-too-large and permanent failures. Providers word their
 * errors differently, so the wording is matched loosely; anything unknown is permanent, which
 * stops retries but is still counted and surfaced.
 */
final class RpcErrors {

    /** Wordings of providers that refuse a large {@code eth_getLogs} (block range or result count). */
    private static final Pattern RANGE_REFUSAL = Pattern.compile(
            "range|too many|more than|too large|too wide|exceed|response size|result size|limit");
    private static final Pattern RATE_LIMITED = Pattern.compile("rate limit|too many requests|request rate");
    private static final Pattern TRANSIENT_WORDING = Pattern.compile(
            "timeout|timed out|try again|temporar|busy|overload|unavailable|capacity|header not found"
                    + "|connection|internal error");
    /** -32005: limit exceeded (EIP-1474); -32603: internal error. */
    private static final int LIMIT_EXCEEDED = -32005;
    private static final int INTERNAL_ERROR = -32603;

    private RpcErrors() {
    }

    static RpcException fromError(String method, Response.Error error) {
        String message = error.getMessage() == null ? "" : error.getMessage();
        String lower = message.toLowerCase(Locale.ROOT);
        int code = error.getCode();
        RpcException.Kind kind;
        if (RATE_LIMITED.matcher(lower).find()) {
            kind = RpcException.Kind.TRANSIENT;
        } else if ("eth_getLogs".equals(method) && (code == LIMIT_EXCEEDED || RANGE_REFUSAL.matcher(lower).find())) {
            kind = RpcException.Kind.RANGE_TOO_LARGE;
        } else if (code == LIMIT_EXCEEDED || code == INTERNAL_ERROR || TRANSIENT_WORDING.matcher(lower).find()) {
            kind = RpcException.Kind.TRANSIENT;
        } else {
            kind = RpcException.Kind.PERMANENT;
        }
        return new RpcException(kind, method, "error " + code + ": " + message, code, error.getData(), null);
    }

    /** 408, 425, 429 and every 5xx are worth retrying; other non-200 statuses are not. */
    static boolean isTransientStatus(int status) {
        return status == 408 || status == 425 || status == 429 || status >= 500;
    }
}
