package io.chanledger.api.wallet;

import io.chanledger.domain.eip712.DigestSigner;
import io.chanledger.domain.eip712.Hex;
import java.net.http.HttpRequest;

/** Signs API requests the way a provider's wallet does ({@code personal_sign}), for the test deployment. */
public final class WalletSigning {

    public static final long CHAIN_ID = 137;
    public static final String CONTRACT = "0x5fbdb2315678afecb367f032d93f642f64180aa3";

    private WalletSigning() {
    }

    public static String sign(DigestSigner wallet, String method, String pathAndQuery, String address, long timestamp) {
        return sign(wallet, method, pathAndQuery, address, timestamp, null);
    }

    /** The signature over the message with a {@code nonce} line (none when {@code nonce} is null). */
    public static String sign(DigestSigner wallet, String method, String pathAndQuery, String address, long timestamp,
                              String nonce) {
        WalletRequestMessage message = new WalletRequestMessage(method, pathAndQuery, address, CHAIN_ID, CONTRACT,
                Long.toString(timestamp), nonce);
        return Hex.encode(wallet.sign(message.digest()));
    }

    /** A POST of {@code json} to {@code baseUrl + path} signed by {@code wallet} at {@code timestamp}. */
    public static HttpRequest.Builder signedPost(String baseUrl, String path, String json, DigestSigner wallet,
                                                 long timestamp) {
        return HttpRequest.newBuilder(java.net.URI.create(baseUrl + path))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json))
                .header(WalletAuthenticator.ADDRESS_HEADER, wallet.address())
                .header(WalletAuthenticator.TIMESTAMP_HEADER, Long.toString(timestamp))
                .header(WalletAuthenticator.SIGNATURE_HEADER,
                        sign(wallet, "POST", path, wallet.address(), timestamp));
    }

    /** A GET of {@code baseUrl + pathAndQuery} signed by {@code wallet} at {@code timestamp}. */
    public static HttpRequest.Builder signedGet(String baseUrl, String pathAndQuery, DigestSigner wallet,
                                                long timestamp) {
        return HttpRequest.newBuilder(java.net.URI.create(baseUrl + pathAndQuery)).GET()
                .header(WalletAuthenticator.ADDRESS_HEADER, wallet.address())
                .header(WalletAuthenticator.TIMESTAMP_HEADER, Long.toString(timestamp))
                .header(WalletAuthenticator.SIGNATURE_HEADER,
                        sign(wallet, "GET", pathAndQuery, wallet.address(), timestamp));
    }
}
