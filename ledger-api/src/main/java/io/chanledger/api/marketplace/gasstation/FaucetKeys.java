package io.chanledger.api.marketplace.gasstation;

import io.chanledger.domain.eip712.Hex;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.web3j.crypto.Credentials;

/**
 * Reads the faucet key from {@code chan.gas-station.faucet-key} or from the file named by
 * {@code faucet-key-file}. Error messages name where the key came from, never the key.
 */
final class FaucetKeys {

    private FaucetKeys() {
    }

    /** The faucet's credentials, or empty when neither setting has a value. */
    static Optional<Credentials> load(GasStationProperties properties) {
        String inline = properties.faucetKey();
        String file = properties.faucetKeyFile();
        if (inline != null && !inline.isBlank()) {
            return Optional.of(parse(inline.strip(), "chan.gas-station.faucet-key"));
        }
        if (file != null && !file.isBlank()) {
            String text;
            try {
                text = Files.readString(Path.of(file.strip()));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the faucet key file named by chan.gas-station.faucet-key-file", e);
            }
            return Optional.of(parse(text.strip(), "the faucet key file"));
        }
        return Optional.empty();
    }

    private static Credentials parse(String text, String source) {
        String hex = text.startsWith("0x") ? text : "0x" + text;
        if (!Hex.isBytes32(hex)) {
            throw new IllegalStateException(source + " is not a private key (32 bytes of hex)");
        }
        return Credentials.create(hex.substring(2));
    }
}
