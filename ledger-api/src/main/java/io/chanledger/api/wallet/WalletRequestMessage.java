package io.chanledger.api.wallet;

import java.nio.charset.StandardCharsets;
import org.web3j.crypto.Sign;

/**
 * The text a wallet signs (EIP-191 {@code personal_sign}) to make one API request. Values are
 * written exactly as the request carries them:
 *
 * <pre>
 * Chan API request
 * method: {HTTP method}
 * path: {path and query, as sent}
 * address: {X-CHAN-Auth-Address}
 * chainId: {chain id}
 * contract: {channel contract, lowercase}
 * timestamp: {X-CHAN-Auth-Timestamp}
 * nonce: {X-CHAN-Auth-Nonce}
 * </pre>
 *
 * Lines end with a single LF and the last one has none. Naming the method and path keeps a
 * signature from opening any other resource; the chain and contract keep it from working on
 * another deployment; the timestamp bounds its life. The nonce, the client's own random value,
 * makes two identical requests signed within the same second two different messages (wallets
 * sign deterministically, so they would otherwise carry the same signature, used only once). It
 * came later: a request without it is signed over the first six lines alone ({@code nonce} null).
 */
public record WalletRequestMessage(String method, String path, String address, long chainId, String contract,
                                   String timestamp, String nonce) {

    public static final String TITLE = "Chan API request";

    /** The message of a request without a nonce, as signed before nonces existed. */
    public WalletRequestMessage(String method, String path, String address, long chainId, String contract,
                                String timestamp) {
        this(method, path, address, chainId, contract, timestamp, null);
    }

    public String text() {
        String text = TITLE + "\n"
                + "method: " + method + "\n"
                + "path: " + path + "\n"
                + "address: " + address + "\n"
                + "chainId: " + chainId + "\n"
                + "contract: " + contract + "\n"
                + "timestamp: " + timestamp;
        return nonce == null ? text : text + "\n" + "nonce: " + nonce;
    }

    /** keccak256("\x19Ethereum Signed Message:\n" ‖ byte length ‖ text), what wallets sign. */
    public byte[] digest() {
        return Sign.getEthereumMessageHash(text().getBytes(StandardCharsets.UTF_8));
    }
}
