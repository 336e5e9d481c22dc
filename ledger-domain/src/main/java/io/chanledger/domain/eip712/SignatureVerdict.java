package io.chanledger.domain.eip712;

import java.util.Objects;

/** Result of applying the deployed contract's signature rule to (digest, signature). */
public sealed interface SignatureVerdict {

    /** The signature is one the contract accepts; {@code signer} is lowercase 0x + 40 hex. */
    record Recovered(String signer) implements SignatureVerdict {
        public Recovered {
            Objects.requireNonNull(signer, "signer");
        }

        /** Whether the recovered signer is {@code expected}, an address in any valid spelling. */
        public boolean isSigner(String expected) {
            return signer.equals(Hex.normalizeAddress(expected));
        }
    }

    record Rejected(SignatureRejection reason) implements SignatureVerdict {
        public Rejected {
            Objects.requireNonNull(reason, "reason");
        }
    }
}
