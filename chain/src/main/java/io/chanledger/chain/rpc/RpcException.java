package io.chanledger.chain.rpc;

/**
 * A JSON-RPC call that did not produce a usable answer. {@link Kind} says what the caller may do
 * about it: try again later, shrink the request, or give up on this request for good.
 */
public class RpcException extends RuntimeException {

    public enum Kind {
        /** Timeouts, I/O errors, HTTP 429 and 5xx, rate limits, malformed answers: retrying can help. */
        TRANSIENT,
        /** The node refuses an {@code eth_getLogs} range as too large or too many results: ask for less. */
        RANGE_TOO_LARGE,
        /** The request itself is wrong or refused (invalid params, unknown method, revert): retrying cannot help. */
        PERMANENT
    }

    private final Kind kind;
    private final String method;
    private final Integer rpcCode;
    private final String errorData;

    public RpcException(Kind kind, String method, String message, Integer rpcCode, String errorData, Throwable cause) {
        super(method + ": " + message, cause);
        this.kind = kind;
        this.method = method;
        this.rpcCode = rpcCode;
        this.errorData = errorData;
    }

    public static RpcException transientFailure(String method, String message, Throwable cause) {
        return new RpcException(Kind.TRANSIENT, method, message, null, null, cause);
    }

    public static RpcException permanent(String method, String message) {
        return new RpcException(Kind.PERMANENT, method, message, null, null, null);
    }

    public Kind kind() {
        return kind;
    }

    public boolean isTransient() {
        return kind == Kind.TRANSIENT;
    }

    public String method() {
        return method;
    }

    /** The JSON-RPC error code, when the node answered with an error object. */
    public Integer rpcCode() {
        return rpcCode;
    }

    /** The error object's {@code data} (revert data of a failed call), or null. */
    public String errorData() {
        return errorData;
    }
}
