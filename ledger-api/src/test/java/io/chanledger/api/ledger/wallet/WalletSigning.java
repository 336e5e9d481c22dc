package io.chanledger.api.ledger.wallet;

import io.chanledger.domain.eip712.DigestSigner;
import io.chanledger.domain.eip712.Hex;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * Signs API requests the way a wallet does ({@code personal_sign}), for the test deployment. Unless
 * told another, a request is signed for {@link #PROVIDER}, the audience of the shared test context,
 * whose gateway is that provider.
 */
public final class WalletSigning {

    public static final long CHAIN_ID = 137;
    public static final String CONTRACT = "0x5fbdb2315678afecb367f032d93f642f64180aa3";
    /** The wallet of application-test.yml's {@code chan.gateway.provider-key}, lowercase. */
    public static final String PROVIDER = new DigestSigner(
            Hex.decode("0x715a48a4b5929015260802e728408f658958759273c7dea32bb2b0540ca13e2e")).address();
    private static final SecureRandom RANDOM = new SecureRandom();

    private WalletSigning() {
    }

    /** A fresh X-CHAN-Auth-Nonce: 32 hex digits. */
    public static String nonce() {
        byte[] bytes = new byte[16];
        RANDOM.nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    /** The signature of a request without a body to {@link #PROVIDER}. */
    public static String sign(DigestSigner wallet, String method, String pathAndQuery, String address, long timestamp,
                              String nonce) {
        return sign(wallet, new WalletRequestMessage(method, pathAndQuery, PROVIDER,
                WalletRequestMessage.bodyHash(new byte[0]), address, CHAIN_ID, CONTRACT, Long.toString(timestamp), nonce));
    }

    public static String sign(DigestSigner wallet, WalletRequestMessage message) {
        return Hex.encode(wallet.sign(message.digest()));
    }

    /** A POST of {@code json} to {@code baseUrl + path} signed by {@code wallet} at {@code timestamp} for {@link #PROVIDER}. */
    public static HttpRequest.Builder signedPost(String baseUrl, String path, String json, DigestSigner wallet,
                                                 long timestamp) {
        return signedPost(baseUrl, PROVIDER, path, json, wallet, timestamp);
    }

    /** A POST of {@code json} to {@code baseUrl + path} signed by {@code wallet} for {@code audience}. */
    public static HttpRequest.Builder signedPost(String baseUrl, String audience, String path, String json,
                                                 DigestSigner wallet, long timestamp) {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        return signed(HttpRequest.newBuilder(URI.create(baseUrl + path))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofByteArray(body)),
                wallet, "POST", path, audience, body, timestamp);
    }

    /** A GET of {@code baseUrl + pathAndQuery} signed by {@code wallet} at {@code timestamp} for {@link #PROVIDER}. */
    public static HttpRequest.Builder signedGet(String baseUrl, String pathAndQuery, DigestSigner wallet,
                                                long timestamp) {
        return signedGet(baseUrl, PROVIDER, pathAndQuery, wallet, timestamp);
    }

    /** A GET of {@code baseUrl + pathAndQuery} signed by {@code wallet} for {@code audience}. */
    public static HttpRequest.Builder signedGet(String baseUrl, String audience, String pathAndQuery,
                                                DigestSigner wallet, long timestamp) {
        return signed(HttpRequest.newBuilder(URI.create(baseUrl + pathAndQuery)).GET(),
                wallet, "GET", pathAndQuery, audience, new byte[0], timestamp);
    }

    private static HttpRequest.Builder signed(HttpRequest.Builder request, DigestSigner wallet, String method,
                                              String pathAndQuery, String audience, byte[] body, long timestamp) {
        String nonce = nonce();
        WalletRequestMessage message = new WalletRequestMessage(method, pathAndQuery, audience,
                WalletRequestMessage.bodyHash(body), wallet.address(), CHAIN_ID, CONTRACT, Long.toString(timestamp),
                nonce);
        return request
                .header(WalletAuthenticator.ADDRESS_HEADER, wallet.address())
                .header(WalletAuthenticator.TIMESTAMP_HEADER, Long.toString(timestamp))
                .header(WalletAuthenticator.NONCE_HEADER, nonce)
                .header(WalletAuthenticator.SIGNATURE_HEADER, sign(wallet, message));
    }
}
