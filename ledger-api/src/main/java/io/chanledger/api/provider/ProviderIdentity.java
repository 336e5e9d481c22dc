package io.chanledger.api.provider;

import io.chanledger.domain.eip712.DigestSigner;
import io.chanledger.domain.eip712.Hex;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import org.web3j.crypto.Credentials;
import org.web3j.crypto.ECKeyPair;

/**
 * The provider's wallet: the address channels are opened to, and the key that signs close
 * authorizations and claims. The key is read from the configuration or a file once; it is
 * never part of a message, a log line or {@link #toString()}.
 */
public final class ProviderIdentity {

    private final DigestSigner signer;
    private final Credentials credentials;

    private ProviderIdentity(byte[] key) {
        this.signer = new DigestSigner(key);
        this.credentials = Credentials.create(ECKeyPair.create(key));
        Arrays.fill(key, (byte) 0);
    }

    /**
     * The key {@code chan.gateway.provider-key} holds ({@code key}), else the one in the file
     * {@code chan.gateway.provider-key-file} names ({@code keyFile}).
     */
    public static ProviderIdentity load(String key, String keyFile) {
        String text;
        if (key != null && !key.isBlank()) {
            text = key;
        } else if (keyFile != null && !keyFile.isBlank()) {
            try {
                text = Files.readString(Path.of(keyFile), StandardCharsets.US_ASCII);
            } catch (IOException e) {
                throw new IllegalStateException("chan.gateway.provider-key-file cannot be read: " + e.getClass().getSimpleName());
            }
        } else {
            throw new IllegalStateException("the gateway needs the provider's key: set CHAN_GATEWAY_PROVIDER_KEY "
                    + "(chan.gateway.provider-key) or chan.gateway.provider-key-file");
        }
        return new ProviderIdentity(parse(text.strip()));
    }

    /** 64 hex digits, with or without 0x; the error never repeats the input. */
    static byte[] parse(String text) {
        String hex = text.startsWith("0x") || text.startsWith("0X") ? text.substring(2) : text;
        if (hex.length() != 64 || !hex.chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
            throw new IllegalStateException("the provider key must be 32 bytes of hex (64 digits, 0x optional)");
        }
        try {
            return Hex.decode("0x" + hex.toLowerCase(Locale.ROOT), 32);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("the provider key must be 32 bytes of hex (64 digits, 0x optional)");
        }
    }

    /** Lowercase 0x + 40 hex, as the domain keeps addresses. */
    public String address() {
        return signer.address();
    }

    public String checksumAddress() {
        return Hex.toChecksumAddress(signer.address());
    }

    public DigestSigner signer() {
        return signer;
    }

    public Credentials credentials() {
        return credentials;
    }

    @Override
    public String toString() {
        return "ProviderIdentity[" + address() + "]";
    }
}
