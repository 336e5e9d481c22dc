package io.chanledger.api.provider.x402;

/**
 * Why a payment is refused or its settlement failed: the reason codes of the x402 specification
 * (the {@code invalidReason} of a verification, the {@code errorReason} of a settlement response),
 * plus {@link #SETTLEMENT_PENDING}, the non-final answer newer clients understand.
 */
public enum X402Reason {
    INSUFFICIENT_FUNDS("insufficient_funds"),
    INVALID_VALID_AFTER("invalid_exact_evm_payload_authorization_valid_after"),
    INVALID_VALID_BEFORE("invalid_exact_evm_payload_authorization_valid_before"),
    INVALID_VALUE("invalid_exact_evm_payload_authorization_value_mismatch"),
    INVALID_SIGNATURE("invalid_exact_evm_payload_signature"),
    INVALID_RECIPIENT("invalid_exact_evm_payload_recipient_mismatch"),
    INVALID_NETWORK("invalid_network"),
    INVALID_PAYLOAD("invalid_payload"),
    INVALID_PAYMENT_REQUIREMENTS("invalid_payment_requirements"),
    INVALID_SCHEME("invalid_scheme"),
    UNSUPPORTED_SCHEME("unsupported_scheme"),
    INVALID_X402_VERSION("invalid_x402_version"),
    /** The authorization's nonce is used (on chain, or by another payment here), or its settlement is under way. */
    INVALID_TRANSACTION_STATE("invalid_transaction_state"),
    UNEXPECTED_VERIFY_ERROR("unexpected_verify_error"),
    UNEXPECTED_SETTLE_ERROR("unexpected_settle_error"),
    /** Sent, not yet mined: the transaction hash is known, the outcome is not. */
    SETTLEMENT_PENDING("settlement_pending");

    private final String code;

    X402Reason(String code) {
        this.code = code;
    }

    /** The code as it travels on the wire. */
    public String code() {
        return code;
    }

    @Override
    public String toString() {
        return code;
    }
}
