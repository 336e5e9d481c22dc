package io.chanledger.chain.rpc;

import java.math.BigInteger;

/** The parts of a block the listener and the sender use. Hashes lowercase 0x-hex. */
public record BlockHeader(long number, String hash, String parentHash, long timestamp, BigInteger baseFeePerGas) {
}
