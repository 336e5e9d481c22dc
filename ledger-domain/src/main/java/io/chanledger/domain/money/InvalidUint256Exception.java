package io.chanledger.domain.money;

/** A decimal string that is not a uint256; the message says what is wrong with it. */
public class InvalidUint256Exception extends IllegalArgumentException {

    public InvalidUint256Exception(String message) {
        super(message);
    }
}
