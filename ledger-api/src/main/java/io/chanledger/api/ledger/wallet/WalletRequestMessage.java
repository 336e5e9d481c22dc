package io.chanledger.api.ledger.wallet;

import io.chanledger.domain.eip712.Hex;
import java.nio.charset.StandardCharsets;
import org.web3j.crypto.Hash;
import org.web3j.crypto.Sign;

/**
 * The text a wallet signs (EIP-191 {@code personal_sign}) to make one API request. Values are
 * written exactly as the request carries them:
 *
 * <pre>
 * Chan API request
 * method: {HTTP method}
 * path: {path and query, as sent}
 * audience: {the party the request is sent to: a provider's wallet, lowercase, or the marketplace's URL}
 * bodyHash: {0x + keccak256 of the body's bytes as sent; of no bytes when there is none}
 * address: {X-CHAN-Auth-Address}
 * chainId: {chain id}
 * contract: {channel contract, lowercase}
 * timestamp: {X-CHAN-Auth-Timestamp}
 * nonce: {X-CHAN-Auth-Nonce}
 * </pre>
 *
 * Lines end with a single LF and the last one has none. Naming the method and path keeps a
 * signature from opening any other resource; the audience keeps the party that received it from
 * spending it at another party of the same deployment (a provider replaying a consumer's close at
 * another provider); the body's hash keeps anyone from sending the same headers with another body;
 * the chain and contract keep it from working on another deployment; the timestamp bounds its
 * life. The nonce, the client's own random value, makes two identical requests signed within the
 * same second two different messages (wallets sign deterministically, so they would otherwise
 * carry the same signature, used only once).
 */
public record WalletRequestMessage(String method, String path, String audience, String bodyHash, String address,
                                   long chainId, String contract, String timestamp, String nonce) {

    public static final String TITLE = "Chan API request";

    /** {@code 0x} + keccak256 of {@code body}, lowercase hex: the {@code bodyHash} line. */
    public static String bodyHash(byte[] body) {
        return Hex.encode(Hash.sha3(body));
    }

    public String text() {
        return TITLE + "\n"
                + "method: " + method + "\n"
                + "path: " + path + "\n"
                + "audience: " + audience + "\n"
                + "bodyHash: " + bodyHash + "\n"
                + "address: " + address + "\n"
                + "chainId: " + chainId + "\n"
                + "contract: " + contract + "\n"
                + "timestamp: " + timestamp + "\n"
                + "nonce: " + nonce;
    }

    /** keccak256("\x19Ethereum Signed Message:\n" ‖ byte length ‖ text), what wallets sign. */
    public byte[] digest() {
        return Sign.getEthereumMessageHash(text().getBytes(StandardCharsets.UTF_8));
    }
}
