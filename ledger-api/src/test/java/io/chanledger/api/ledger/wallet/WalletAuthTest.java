package io.chanledger.api.ledger.wallet;

import static org.assertj.core.api.Assertions.assertThat;

import io.chanledger.api.support.Http;
import io.chanledger.api.support.LedgerIntegrationTest;
import io.chanledger.api.support.TestKeys;
import io.chanledger.domain.eip712.DigestSigner;
import io.chanledger.domain.eip712.Hex;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Instant;
import java.util.Locale;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

/** Wallet-signed requests, on the provider's claimable endpoint. */
class WalletAuthTest extends LedgerIntegrationTest {

    private static final BigInteger HALF_N =
            new BigInteger("7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0", 16);
    private static final BigInteger N =
            new BigInteger("fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141", 16);

    @Autowired
    private JdbcTemplate jdbc;

    private DigestSigner provider;
    private String path;

    @BeforeEach
    void freshWallet() {
        provider = TestKeys.wallet("wallet-auth-" + UUID.randomUUID());
        path = "/api/providers/" + provider.address() + "/claimable";
    }

    private static long now() {
        return Instant.now().getEpochSecond();
    }

    private Http.Reply get(String address, String timestamp, String nonce, String signature) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl() + path)).GET();
        if (address != null) {
            request.header(WalletAuthenticator.ADDRESS_HEADER, address);
        }
        if (timestamp != null) {
            request.header(WalletAuthenticator.TIMESTAMP_HEADER, timestamp);
        }
        if (nonce != null) {
            request.header(WalletAuthenticator.NONCE_HEADER, nonce);
        }
        if (signature != null) {
            request.header(WalletAuthenticator.SIGNATURE_HEADER, signature);
        }
        return Http.send(request);
    }

    private Http.Reply getWithNonce(String timestamp, String nonce, String signature) {
        return get(provider.address(), timestamp, nonce, signature);
    }

    /** The message of a GET of this test's path, without a body, by the provider's wallet. */
    private WalletRequestMessage message(String audience, long timestamp, String nonce) {
        return new WalletRequestMessage("GET", path, audience, WalletRequestMessage.bodyHash(new byte[0]),
                provider.address(), WalletSigning.CHAIN_ID, WalletSigning.CONTRACT, Long.toString(timestamp), nonce);
    }

    private int signaturesRecordedFor(DigestSigner wallet) {
        return jdbc.queryForObject("SELECT count(*) FROM wallet_auth_signature WHERE address = ?", Integer.class,
                wallet.address().toLowerCase(Locale.ROOT));
    }

    private Http.Reply signedAt(long timestamp) {
        String nonce = WalletSigning.nonce();
        return getWithNonce(Long.toString(timestamp), nonce,
                WalletSigning.sign(provider, "GET", path, provider.address(), timestamp, nonce));
    }

    private static void assertRefused(Http.Reply reply, int status, String code) {
        assertThat(reply.status()).as(reply.body()).isEqualTo(status);
        assertThat(reply.contentType()).startsWith("application/problem+json");
        assertThat(reply.json().path("code").asText()).isEqualTo(code);
    }

    @Test
    void aFreshSignatureOfTheProviderIsAccepted() {
        Http.Reply reply = signedAt(now());

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        assertThat(reply.json().path("provider").asText()).isEqualTo(Hex.toChecksumAddress(provider.address()));
    }

    @Test
    void theChecksummedSpellingOfTheAddressIsAcceptedToo() {
        String checksummed = Hex.toChecksumAddress(provider.address());
        long now = now();

        Http.Reply reply = get(checksummed, Long.toString(now), "nonce-checksum-1",
                WalletSigning.sign(provider, "GET", path, checksummed, now, "nonce-checksum-1"));

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
    }

    @Test
    void anExpiredSignatureIsRefused() {
        assertRefused(signedAt(now() - 301), 401, "wallet_auth_expired");
    }

    @Test
    void aSignatureDatedInTheFutureIsRefused() {
        assertRefused(signedAt(now() + 600), 401, "wallet_auth_expired");
    }

    @Test
    void aReplayedSignatureIsRefused() {
        long now = now();
        String signature = WalletSigning.sign(provider, "GET", path, provider.address(), now, "nonce-replay-001");
        assertThat(getWithNonce(Long.toString(now), "nonce-replay-001", signature).status()).isEqualTo(200);

        assertRefused(getWithNonce(Long.toString(now), "nonce-replay-001", signature), 401, "wallet_auth_replayed");
    }

    @Test
    void theOtherSpellingOfVIsTheSameSignatureAndIsRefusedAsAReplay() {
        long now = now();
        byte[] signature = Hex.decode(WalletSigning.sign(provider, "GET", path, provider.address(), now, "nonce-v-spell-1"));
        assertThat(getWithNonce(Long.toString(now), "nonce-v-spell-1", Hex.encode(signature)).status()).isEqualTo(200);
        signature[64] -= 27;

        assertRefused(getWithNonce(Long.toString(now), "nonce-v-spell-1", Hex.encode(signature)), 401,
                "wallet_auth_replayed");
    }

    @Test
    void identicalRequestsInTheSameSecondAreTwoRequestsWhenEachSignsItsOwnNonce() {
        long now = now();
        String first = WalletSigning.sign(provider, "GET", path, provider.address(), now, "nonce-first-0001");
        String second = WalletSigning.sign(provider, "GET", path, provider.address(), now, "nonce-second-002");
        assertThat(second).isNotEqualTo(first);

        Http.Reply one = getWithNonce(Long.toString(now), "nonce-first-0001", first);
        Http.Reply two = getWithNonce(Long.toString(now), "nonce-second-002", second);

        assertThat(one.status()).as(one.body()).isEqualTo(200);
        assertThat(two.status()).as(two.body()).isEqualTo(200);
        assertThat(two.json().path("provider").asText()).isEqualTo(Hex.toChecksumAddress(provider.address()));
        assertThat(signaturesRecordedFor(provider)).isEqualTo(2);
    }

    @Test
    void aSignatureOverANonceIsStillUsedOnce() {
        long now = now();
        String signature = WalletSigning.sign(provider, "GET", path, provider.address(), now, "nonce-replayed-1");
        assertThat(getWithNonce(Long.toString(now), "nonce-replayed-1", signature).status()).isEqualTo(200);

        assertRefused(getWithNonce(Long.toString(now), "nonce-replayed-1", signature), 401, "wallet_auth_replayed");
        assertThat(signaturesRecordedFor(provider)).isEqualTo(1);
    }

    @Test
    void theNonceIsPartOfWhatIsSignedAndRequired() {
        long now = now();
        String withNonce = WalletSigning.sign(provider, "GET", path, provider.address(), now, "nonce-signed-001");

        Http.Reply withoutNonce = get(provider.address(), Long.toString(now), null, withNonce);

        assertRefused(getWithNonce(Long.toString(now), "nonce-other-0001", withNonce), 401, "wallet_auth_wrong_signer");
        assertRefused(withoutNonce, 401, "wallet_auth_required");
        assertThat(withoutNonce.json().path("header").asText()).isEqualTo(WalletAuthenticator.NONCE_HEADER);
        assertThat(signaturesRecordedFor(provider)).isZero();
    }

    @Test
    void aSignatureForAnotherPartyIsRefusedNamingThisServersAudience() {
        long now = now();
        String elsewhere = TestKeys.wallet("wallet-auth-other-provider").address();
        for (String audience : new String[]{elsewhere, "http://localhost:8080", "marketplace",
                WalletSigning.PROVIDER.toUpperCase(Locale.ROOT).replace("0X", "0x")}) {
            Http.Reply reply = getWithNonce(Long.toString(now), "nonce-audience-1",
                    WalletSigning.sign(provider, message(audience, now, "nonce-audience-1")));

            assertRefused(reply, 401, "wallet_auth_wrong_signer");
            assertThat(reply.json().path("audience").asText()).isEqualTo(WalletSigning.PROVIDER);
            assertThat(reply.json().path("detail").asText()).contains("audience " + WalletSigning.PROVIDER);
        }
        assertThat(getWithNonce(Long.toString(now), "nonce-audience-1",
                WalletSigning.sign(provider, message(WalletSigning.PROVIDER, now, "nonce-audience-1"))).status())
                .isEqualTo(200);
    }

    @Test
    void theTextWithoutTheAudienceAndBodyLinesIsRefused() {
        long now = now();
        String old = WalletRequestMessage.TITLE + "\nmethod: GET\npath: " + path + "\naddress: " + provider.address()
                + "\nchainId: " + WalletSigning.CHAIN_ID + "\ncontract: " + WalletSigning.CONTRACT + "\ntimestamp: " + now
                + "\nnonce: nonce-old-text-1";
        String signature = Hex.encode(provider.sign(org.web3j.crypto.Sign.getEthereumMessageHash(
                old.getBytes(java.nio.charset.StandardCharsets.UTF_8))));

        assertRefused(getWithNonce(Long.toString(now), "nonce-old-text-1", signature), 401, "wallet_auth_wrong_signer");
        assertThat(signaturesRecordedFor(provider)).isZero();
    }

    @Test
    void aBodySentWithAGetIsPartOfWhatIsSigned() {
        long now = now();
        String signature = WalletSigning.sign(provider, "GET", path, provider.address(), now, "nonce-get-body-1");

        Http.Reply reply = Http.send(HttpRequest.newBuilder(URI.create(baseUrl() + path))
                .method("GET", HttpRequest.BodyPublishers.ofString("{\"limit\":1}"))
                .header(WalletAuthenticator.ADDRESS_HEADER, provider.address())
                .header(WalletAuthenticator.TIMESTAMP_HEADER, Long.toString(now))
                .header(WalletAuthenticator.NONCE_HEADER, "nonce-get-body-1")
                .header(WalletAuthenticator.SIGNATURE_HEADER, signature));

        assertRefused(reply, 401, "wallet_auth_wrong_signer");
        assertThat(reply.json().path("bodyHash").asText())
                .isEqualTo(WalletRequestMessage.bodyHash("{\"limit\":1}".getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    }

    @Test
    void aMalformedNonceIsNamed() {
        long now = now();
        for (String nonce : new String[]{"short", "has space in it", "x".repeat(65), ""}) {
            Http.Reply reply = getWithNonce(Long.toString(now), nonce,
                    WalletSigning.sign(provider, "GET", path, provider.address(), now, nonce));

            assertRefused(reply, 401, "wallet_auth_invalid");
            assertThat(reply.json().path("header").asText()).isEqualTo(WalletAuthenticator.NONCE_HEADER);
        }
    }

    @Test
    void aSignatureByAnotherWalletIsRefused() {
        DigestSigner stranger = TestKeys.wallet("wallet-auth-stranger");
        long now = now();

        Http.Reply reply = getWithNonce(Long.toString(now), "nonce-stranger-1",
                WalletSigning.sign(stranger, "GET", path, provider.address(), now, "nonce-stranger-1"));

        assertRefused(reply, 401, "wallet_auth_wrong_signer");
    }

    @Test
    void aSignatureOverAnotherPathIsRefused() {
        long now = now();

        Http.Reply reply = getWithNonce(Long.toString(now), "nonce-path-0001",
                WalletSigning.sign(provider, "GET", path + "?limit=1", provider.address(), now, "nonce-path-0001"));

        assertRefused(reply, 401, "wallet_auth_wrong_signer");
    }

    @Test
    void theHighSTwinOfAValidSignatureIsRefused() {
        long now = now();
        byte[] signature = Hex.decode(WalletSigning.sign(provider, "GET", path, provider.address(), now, "nonce-high-s-1"));
        BigInteger s = new BigInteger(1, java.util.Arrays.copyOfRange(signature, 32, 64));
        assertThat(s).isLessThanOrEqualTo(HALF_N);
        byte[] highS = N.subtract(s).toByteArray();
        System.arraycopy(highS, highS.length - 32, signature, 32, 32);
        signature[64] = (byte) (signature[64] == 27 ? 28 : 27);

        assertRefused(getWithNonce(Long.toString(now), "nonce-high-s-1", Hex.encode(signature)), 401,
                "wallet_auth_invalid_signature");
    }

    @Test
    void aMissingHeaderIsNamed() {
        long now = now();

        Http.Reply withoutSignature = get(provider.address(), Long.toString(now), "nonce-missing-1", null);
        Http.Reply withoutAnything = get(null, null, null, null);

        assertRefused(withoutSignature, 401, "wallet_auth_required");
        assertThat(withoutSignature.json().path("header").asText()).isEqualTo(WalletAuthenticator.SIGNATURE_HEADER);
        assertRefused(withoutAnything, 401, "wallet_auth_required");
    }

    @Test
    void malformedHeadersAreRefused() {
        long now = now();
        String signature = WalletSigning.sign(provider, "GET", path, provider.address(), now, "nonce-malformed");

        assertRefused(get("0x1234", Long.toString(now), "nonce-malformed", signature), 401, "wallet_auth_invalid");
        assertRefused(get(provider.address(), "yesterday", "nonce-malformed", signature), 401, "wallet_auth_invalid");
        assertRefused(get(provider.address(), Long.toString(now), "nonce-malformed", "0xzz"), 401,
                "wallet_auth_invalid");
    }
}
