package io.chanledger.api.wallet;

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

    private Http.Reply get(String address, String timestamp, String signature) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl() + path)).GET();
        if (address != null) {
            request.header(WalletAuthenticator.ADDRESS_HEADER, address);
        }
        if (timestamp != null) {
            request.header(WalletAuthenticator.TIMESTAMP_HEADER, timestamp);
        }
        if (signature != null) {
            request.header(WalletAuthenticator.SIGNATURE_HEADER, signature);
        }
        return Http.send(request);
    }

    private Http.Reply getWithNonce(String timestamp, String nonce, String signature) {
        return Http.send(HttpRequest.newBuilder(URI.create(baseUrl() + path)).GET()
                .header(WalletAuthenticator.ADDRESS_HEADER, provider.address())
                .header(WalletAuthenticator.TIMESTAMP_HEADER, timestamp)
                .header(WalletAuthenticator.NONCE_HEADER, nonce)
                .header(WalletAuthenticator.SIGNATURE_HEADER, signature));
    }

    private int signaturesRecordedFor(DigestSigner wallet) {
        return jdbc.queryForObject("SELECT count(*) FROM wallet_auth_signature WHERE address = ?", Integer.class,
                wallet.address().toLowerCase(Locale.ROOT));
    }

    private Http.Reply signedAt(long timestamp) {
        return get(provider.address(), Long.toString(timestamp),
                WalletSigning.sign(provider, "GET", path, provider.address(), timestamp));
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

        Http.Reply reply = get(checksummed, Long.toString(now), WalletSigning.sign(provider, "GET", path, checksummed, now));

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
        String signature = WalletSigning.sign(provider, "GET", path, provider.address(), now);
        assertThat(get(provider.address(), Long.toString(now), signature).status()).isEqualTo(200);

        assertRefused(get(provider.address(), Long.toString(now), signature), 401, "wallet_auth_replayed");
    }

    @Test
    void theOtherSpellingOfVIsTheSameSignatureAndIsRefusedAsAReplay() {
        long now = now();
        byte[] signature = Hex.decode(WalletSigning.sign(provider, "GET", path, provider.address(), now));
        assertThat(get(provider.address(), Long.toString(now), Hex.encode(signature)).status()).isEqualTo(200);
        signature[64] -= 27;

        assertRefused(get(provider.address(), Long.toString(now), Hex.encode(signature)), 401, "wallet_auth_replayed");
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
    void theNonceIsPartOfWhatIsSigned() {
        long now = now();
        String withNonce = WalletSigning.sign(provider, "GET", path, provider.address(), now, "nonce-signed-001");
        String withoutNonce = WalletSigning.sign(provider, "GET", path, provider.address(), now);

        // another nonce, or none, than the one signed; a nonce beside a signature of the message without one
        assertRefused(getWithNonce(Long.toString(now), "nonce-other-0001", withNonce), 401, "wallet_auth_wrong_signer");
        assertRefused(get(provider.address(), Long.toString(now), withNonce), 401, "wallet_auth_wrong_signer");
        assertRefused(getWithNonce(Long.toString(now), "nonce-signed-001", withoutNonce), 401,
                "wallet_auth_wrong_signer");
        assertThat(signaturesRecordedFor(provider)).isZero();
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

        Http.Reply reply = get(provider.address(), Long.toString(now),
                WalletSigning.sign(stranger, "GET", path, provider.address(), now));

        assertRefused(reply, 401, "wallet_auth_wrong_signer");
    }

    @Test
    void aSignatureOverAnotherPathIsRefused() {
        long now = now();

        Http.Reply reply = get(provider.address(), Long.toString(now),
                WalletSigning.sign(provider, "GET", path + "?limit=1", provider.address(), now));

        assertRefused(reply, 401, "wallet_auth_wrong_signer");
    }

    @Test
    void theHighSTwinOfAValidSignatureIsRefused() {
        long now = now();
        byte[] signature = Hex.decode(WalletSigning.sign(provider, "GET", path, provider.address(), now));
        BigInteger s = new BigInteger(1, java.util.Arrays.copyOfRange(signature, 32, 64));
        assertThat(s).isLessThanOrEqualTo(HALF_N);
        byte[] highS = N.subtract(s).toByteArray();
        System.arraycopy(highS, highS.length - 32, signature, 32, 32);
        signature[64] = (byte) (signature[64] == 27 ? 28 : 27);

        assertRefused(get(provider.address(), Long.toString(now), Hex.encode(signature)), 401,
                "wallet_auth_invalid_signature");
    }

    @Test
    void aMissingHeaderIsNamed() {
        long now = now();

        Http.Reply withoutSignature = get(provider.address(), Long.toString(now), null);
        Http.Reply withoutAnything = get(null, null, null);

        assertRefused(withoutSignature, 401, "wallet_auth_required");
        assertThat(withoutSignature.json().path("header").asText()).isEqualTo(WalletAuthenticator.SIGNATURE_HEADER);
        assertRefused(withoutAnything, 401, "wallet_auth_required");
    }

    @Test
    void malformedHeadersAreRefused() {
        long now = now();
        String signature = WalletSigning.sign(provider, "GET", path, provider.address(), now);

        assertRefused(get("0x1234", Long.toString(now), signature), 401, "wallet_auth_invalid");
        assertRefused(get(provider.address(), "yesterday", signature), 401, "wallet_auth_invalid");
        assertRefused(get(provider.address(), Long.toString(now), "0xzz"), 401, "wallet_auth_invalid");
    }
}
