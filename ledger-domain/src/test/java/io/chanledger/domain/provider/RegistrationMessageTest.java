package io.chanledger.domain.provider;

import static org.assertj.core.api.Assertions.assertThat;

import io.chanledger.domain.eip712.DigestSigner;
import io.chanledger.domain.eip712.Hex;
import io.chanledger.domain.eip712.SignatureVerdict;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.web3j.crypto.Credentials;
import org.web3j.crypto.Hash;
import org.web3j.crypto.Sign;

class RegistrationMessageTest {

    private static final byte[] KEY = Hash.sha3("provider-1".getBytes(StandardCharsets.UTF_8));
    private static final DigestSigner WALLET = new DigestSigner(KEY);
    private static final RegistrationMessage MESSAGE = new RegistrationMessage(
            Hex.toChecksumAddress(WALLET.address()), "https://acme.example", 137, "n-20261121-01", "2026-11-21T10:00:00Z");

    @Test
    void theTextNamesEveryValueOnItsOwnLine() {
        assertThat(MESSAGE.text()).isEqualTo("Chan provider registration\n"
                + "address: " + Hex.toChecksumAddress(WALLET.address()) + "\n"
                + "apiUrl: https://acme.example\n"
                + "chainId: 137\n"
                + "nonce: n-20261121-01\n"
                + "issuedAt: 2026-11-21T10:00:00Z");
    }

    @Test
    void theDigestIsThePersonalSignPrefixHash() {
        byte[] text = MESSAGE.text().getBytes(StandardCharsets.UTF_8);
        byte[] prefixed = ("\u0019Ethereum Signed Message:\n" + text.length + MESSAGE.text()).getBytes(StandardCharsets.UTF_8);
        assertThat(MESSAGE.digest()).isEqualTo(Hash.sha3(prefixed));
    }

    @Test
    void recoversTheWalletFromAPersonalSignSignatureMadeByWeb3j() {
        Sign.SignatureData data = Sign.signPrefixedMessage(MESSAGE.text().getBytes(StandardCharsets.UTF_8),
                Credentials.create(Hex.encode(KEY)).getEcKeyPair());
        byte[] signature = new byte[65];
        System.arraycopy(data.getR(), 0, signature, 0, 32);
        System.arraycopy(data.getS(), 0, signature, 32, 32);
        signature[64] = data.getV()[0];

        SignatureVerdict verdict = MESSAGE.recover(signature);

        assertThat(verdict).isEqualTo(new SignatureVerdict.Recovered(WALLET.address()));
    }

    @Test
    void aSignatureOverAnotherApiUrlRecoversSomeoneElse() {
        RegistrationMessage other = new RegistrationMessage(MESSAGE.address(), "https://evil.example", 137,
                MESSAGE.nonce(), MESSAGE.issuedAt());
        byte[] signature = WALLET.sign(other.digest());

        SignatureVerdict verdict = MESSAGE.recover(signature);

        assertThat(verdict).isNotEqualTo(new SignatureVerdict.Recovered(WALLET.address()));
    }
}
