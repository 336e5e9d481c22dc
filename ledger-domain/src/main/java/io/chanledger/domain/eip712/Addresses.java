package io.chanledger.domain.eip712;

/** Ethereum addresses from public keys. */
final class Addresses {

    private Addresses() {
    }

    /** Last 20 bytes of keccak256(x ‖ y), lowercase 0x + 40 hex. */
    static String fromPublicKey(byte[] xy64) {
        byte[] hash = Keccak.keccak256(xy64);
        byte[] address = new byte[20];
        System.arraycopy(hash, 12, address, 0, 20);
        return Hex.encode(address);
    }
}
