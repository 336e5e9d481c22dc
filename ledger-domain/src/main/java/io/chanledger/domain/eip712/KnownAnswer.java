package io.chanledger.domain.eip712;

import java.util.Arrays;

/** One signature whose signer is known, to prove a recovery implementation before trusting it. */
final class KnownAnswer {

    static final byte[] DIGEST = Hex.decode("0x59dd9fd8d3739dbe82acd1e850e1f08ebcf76ca9a076a8ce3eacacc4a56a5993");
    static final byte[] RS = Arrays.copyOf(Hex.decode("0x43162b15f0686c4ab6e7e1f685307b3aa1f960c1daf560fa60dff7738e848eeb"
            + "106b852bd2870cb4ee7f595915b2b0ba28831546fef1d94a0dbc648177374a94"), 64);
    static final int RECOVERY_ID = 0;
    static final String SIGNER = "0x5315f457a01c71a5d7ee87da126af57e8cdeda47";

    private KnownAnswer() {
    }
}
