package io.chanledger.api.support;

import io.chanledger.domain.eip712.DigestSigner;
import java.nio.charset.StandardCharsets;
import org.web3j.crypto.Hash;

/** Deterministic test wallets: private key = keccak256(label), as in the shared vectors. */
public final class TestKeys {

    private TestKeys() {
    }

    public static DigestSigner wallet(String label) {
        return new DigestSigner(Hash.sha3(label.getBytes(StandardCharsets.UTF_8)));
    }
}
