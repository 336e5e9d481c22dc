package io.chanledger.api.ledger.audit;

import io.chanledger.domain.eip712.ContractSignatureRule;
import io.chanledger.domain.eip712.Hex;
import io.chanledger.domain.eip712.SignatureVerdict;

/**
 * A signature {@link ExportVerifier} checks: who must have signed which digest, under the
 * contract's own signature rule. Checks are gathered and judged in parallel batches, apart from
 * the channels' invariants, which follow the export's order.
 */
record SignatureCheck(long line, long globalIndex, String channelId, byte[] digest, String signature,
                      String expectedSigner, String code, String what) {

    /** The finding this signature makes; null when the expected signer signed it as the contract requires. */
    Finding judge() {
        byte[] bytes;
        try {
            bytes = Hex.decode(signature);
        } catch (IllegalArgumentException e) {
            return finding("the signature is not hex: " + e.getMessage());
        }
        SignatureVerdict verdict = ContractSignatureRule.recover(digest, bytes);
        if (verdict instanceof SignatureVerdict.Rejected(var reason)) {
            return finding("the contract would refuse the signature of " + what + " (" + reason.code() + ")");
        }
        String signer = ((SignatureVerdict.Recovered) verdict).signer();
        if (!signer.equals(expectedSigner)) {
            return finding(what + " is signed by " + signer + ", not by " + expectedSigner);
        }
        return null;
    }

    private Finding finding(String detail) {
        return new Finding(line, globalIndex, channelId, code, detail);
    }
}
