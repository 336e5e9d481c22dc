package io.chanledger.domain.provider;

import io.chanledger.domain.eip712.ContractSignatureRule;
import io.chanledger.domain.eip712.SignatureVerdict;
import java.nio.charset.StandardCharsets;
import org.web3j.crypto.Sign;

/**
 * The text a provider's wallet signs (EIP-191 {@code personal_sign}) to register. Every value is
 * written exactly as the registration request carries it, so a client signs what it sends:
 *
 * <pre>
 * Chan provider registration
 * address: {providerAddress}
 * apiUrl: {apiUrl}
 * chainId: {chainId}
 * nonce: {nonce}
 * issuedAt: {issuedAt}
 * </pre>
 *
 * Lines end with a single LF and the last one has none. The nonce and the time make a captured
 * signature useless later: the service takes each nonce once, and only within a window around
 * issuedAt.
 */
public record RegistrationMessage(String address, String apiUrl, long chainId, String nonce, String issuedAt) {

    public static final String TITLE = "Chan provider registration";

    public String text() {
        return TITLE + "\n"
                + "address: " + address + "\n"
                + "apiUrl: " + apiUrl + "\n"
                + "chainId: " + chainId + "\n"
                + "nonce: " + nonce + "\n"
                + "issuedAt: " + issuedAt;
    }

    /** keccak256("\x19Ethereum Signed Message:\n" ‖ byte length ‖ text), what wallets sign. */
    public byte[] digest() {
        return Sign.getEthereumMessageHash(text().getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Recovers the signer under the same rule the channel contract applies to vouchers (65 bytes,
     * low s, v in 0/1/27/28): wallets sign that way, and one rule for every signature is simpler
     * to reason about than two.
     */
    public SignatureVerdict recover(byte[] signature) {
        return ContractSignatureRule.recover(digest(), signature);
    }
}
