package io.chanledger.api.ledger.wallet;

import io.chanledger.api.config.ChainProperties;
import io.chanledger.api.http.ApiProblem;
import io.chanledger.api.http.HotPathJson;
import io.chanledger.api.http.StrictRequestHead;
import io.chanledger.domain.eip712.ContractSignatureRule;
import io.chanledger.domain.eip712.Hex;
import io.chanledger.domain.eip712.SignatureVerdict;
import jakarta.servlet.http.HttpServletRequest;
import java.time.Clock;
import java.time.Instant;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import org.web3j.crypto.Hash;

/**
 * Authenticates requests signed by a wallet rather than by an API key: the headers
 * {@value #ADDRESS_HEADER}, {@value #TIMESTAMP_HEADER} (Unix seconds), {@value #NONCE_HEADER} and
 * {@value #SIGNATURE_HEADER} (65 bytes r ‖ s ‖ v, hex) carry an EIP-191 signature over a
 * {@link WalletRequestMessage} naming the request's method, path and body and this server
 * ({@link WalletAudience}). It is valid for {@code chan.wallet-auth.validity} from its timestamp
 * and only once; signatures are judged by the channel contract's own rule (low s, v in
 * 0/1/27/28, never the zero address).
 */
@Component
public class WalletAuthenticator {

    public static final String ADDRESS_HEADER = "X-CHAN-Auth-Address";
    public static final String TIMESTAMP_HEADER = "X-CHAN-Auth-Timestamp";
    public static final String SIGNATURE_HEADER = "X-CHAN-Auth-Signature";
    /** The client's random value, signed with the request so that no two requests share a signature. */
    public static final String NONCE_HEADER = "X-CHAN-Auth-Nonce";
    private static final Pattern NONCE = Pattern.compile("[A-Za-z0-9_-]{8,64}");
    private static final int MAX_SIGNATURE_HEX = 2 + 2 * 128;

    private final WalletAuthProperties properties;
    private final ChainProperties chain;
    private final WalletAudience audience;
    private final UsedSignatures usedSignatures;
    private final Clock clock;

    WalletAuthenticator(WalletAuthProperties properties, ChainProperties chain, WalletAudience audience,
                        UsedSignatures usedSignatures, Clock clock) {
        this.properties = properties;
        this.chain = chain;
        this.audience = audience;
        this.usedSignatures = usedSignatures;
        this.clock = clock;
    }

    /**
     * The wallet (lowercase address) that signed the request; throws 401 unless one did, validly.
     * The body signed is the rest of the request's body, read here: for endpoints that read none.
     */
    public String require(HttpServletRequest request) {
        return authenticate(request).orElseThrow(() -> refused("wallet_auth_required", ADDRESS_HEADER,
                "this resource needs a wallet signature: send " + ADDRESS_HEADER + ", " + TIMESTAMP_HEADER + ", "
                        + NONCE_HEADER + " and " + SIGNATURE_HEADER));
    }

    /**
     * {@link #authenticate(HttpServletRequest, byte[])} of an endpoint that reads no body: the body
     * signed is whatever the request carries, read here (nothing, as a rule).
     */
    public Optional<String> authenticate(HttpServletRequest request) {
        return authenticate(request, null);
    }

    /**
     * The wallet that signed the request, or empty when it carries none of the headers. A request
     * that carries some of them is judged and refused when anything is wrong: a caller who meant
     * to authenticate learns why it did not work. {@code body} is the request's body exactly as the
     * endpoint read it (null: read it from the request now).
     */
    public Optional<String> authenticate(HttpServletRequest request, byte[] body) {
        String address = request.getHeader(ADDRESS_HEADER);
        String timestamp = request.getHeader(TIMESTAMP_HEADER);
        String signature = request.getHeader(SIGNATURE_HEADER);
        String nonce = request.getHeader(NONCE_HEADER);
        if (address == null && timestamp == null && signature == null && nonce == null) {
            return Optional.empty();
        }
        for (String header : new String[]{ADDRESS_HEADER, TIMESTAMP_HEADER, NONCE_HEADER, SIGNATURE_HEADER}) {
            // compared exactly as sent: the container drops white space after a value
            if (StrictRequestHead.hasTrailingWhitespace(request, header)) {
                throw refused("wallet_auth_invalid", header, header + " has white space after its value");
            }
        }
        String wallet = walletOf(required(ADDRESS_HEADER, address));
        Instant signedAt = timeOf(required(TIMESTAMP_HEADER, timestamp));
        if (nonce == null) {
            throw refused("wallet_auth_required", NONCE_HEADER, NONCE_HEADER + " is missing");
        }
        byte[] signatureBytes = signatureOf(required(SIGNATURE_HEADER, signature));
        if (!NONCE.matcher(nonce).matches()) {
            throw refused("wallet_auth_invalid", NONCE_HEADER,
                    NONCE_HEADER + " must be 8 to 64 characters of A-Z a-z 0-9 _ -");
        }
        Instant now = clock.instant();
        if (now.isAfter(signedAt.plus(properties.validity()))) {
            throw refused("wallet_auth_expired", TIMESTAMP_HEADER, "the signature is older than "
                    + properties.validity().toSeconds() + " s; sign the request again");
        }
        if (signedAt.isAfter(now.plus(properties.maxClockSkew()))) {
            throw refused("wallet_auth_expired", TIMESTAMP_HEADER, "the signature's timestamp lies in the future");
        }
        String bodyHash = WalletRequestMessage.bodyHash(body != null ? body : HotPathJson.bodyBytes(request));
        WalletRequestMessage message = new WalletRequestMessage(request.getMethod(), pathOf(request), audience.name(),
                bodyHash, address, chain.chainId(), contractOf(chain), timestamp, nonce);
        SignatureVerdict verdict = ContractSignatureRule.recover(message.digest(), signatureBytes);
        if (verdict instanceof SignatureVerdict.Rejected(var reason)) {
            throw refused("wallet_auth_invalid_signature", SIGNATURE_HEADER,
                    "the signature is not a valid secp256k1 signature (" + reason.code() + ")");
        }
        if (!((SignatureVerdict.Recovered) verdict).signer().equals(wallet)) {
            // the values this server checked the signature over, so the client can see which one differs
            throw new ApiProblem(HttpStatus.UNAUTHORIZED, "wallet_auth_wrong_signer", "the signature is not by "
                    + address + " over this request as sent to this server: method " + message.method() + ", path "
                    + message.path() + ", audience " + message.audience() + ", bodyHash " + message.bodyHash()
                    + ", chainId " + message.chainId() + ", contract " + message.contract(),
                    Map.of("header", SIGNATURE_HEADER, "audience", message.audience(), "bodyHash",
                            message.bodyHash()));
        }
        String signatureHash = Hex.encode(Hash.sha3(Arrays.copyOf(signatureBytes, 64)));
        if (!usedSignatures.firstUse(signatureHash, wallet, signedAt.plus(properties.validity()))) {
            throw refused("wallet_auth_replayed", SIGNATURE_HEADER, "this signature was used before; sign each request anew");
        }
        return Optional.of(wallet);
    }

    private static String contractOf(ChainProperties chain) {
        return chain.channelContract() == null ? "" : chain.channelContract().toLowerCase(Locale.ROOT);
    }

    /** The path and query exactly as sent, undecoded. */
    static String pathOf(HttpServletRequest request) {
        String query = request.getQueryString();
        return query == null ? request.getRequestURI() : request.getRequestURI() + "?" + query;
    }

    private static String required(String header, String value) {
        if (value == null || value.isBlank()) {
            throw refused("wallet_auth_required", header, header + " is missing");
        }
        return value;
    }

    private static String walletOf(String address) {
        try {
            return Hex.normalizeAddress(address);
        } catch (IllegalArgumentException e) {
            throw refused("wallet_auth_invalid", ADDRESS_HEADER, ADDRESS_HEADER + ": " + e.getMessage());
        }
    }

    private static Instant timeOf(String timestamp) {
        if (!timestamp.matches("[0-9]{1,12}")) {
            throw refused("wallet_auth_invalid", TIMESTAMP_HEADER, TIMESTAMP_HEADER + " must be Unix seconds");
        }
        return Instant.ofEpochSecond(Long.parseLong(timestamp));
    }

    private static byte[] signatureOf(String signature) {
        try {
            if (signature.length() > MAX_SIGNATURE_HEX) {
                throw new IllegalArgumentException("too long for a signature");
            }
            return Hex.decode(signature);
        } catch (IllegalArgumentException e) {
            throw refused("wallet_auth_invalid", SIGNATURE_HEADER, SIGNATURE_HEADER + ": " + e.getMessage());
        }
    }

    private static ApiProblem refused(String code, String header, String detail) {
        return new ApiProblem(HttpStatus.UNAUTHORIZED, code, detail, Map.of("header", header));
    }
}
