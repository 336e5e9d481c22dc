package io.chanledger.api.marketplace.directory;

import io.chanledger.api.support.Http;
import io.chanledger.api.support.TestKeys;
import io.chanledger.api.ledger.wallet.WalletAuthenticator;
import io.chanledger.api.ledger.wallet.WalletRequestMessage;
import io.chanledger.api.ledger.wallet.WalletSigning;
import io.chanledger.testsupport.Devnet;
import io.chanledger.domain.eip712.DigestSigner;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import org.web3j.crypto.Credentials;
import org.web3j.crypto.ECKeyPair;
import org.web3j.crypto.Hash;

/**
 * An agent with a wallet of its own on the devnet: opens real channels with providers (the chain
 * listener then records them), and posts reports signed by that wallet ({@code X-CHAN-Auth-*},
 * with a fresh nonce each), each from a client address of its own.
 */
final class PayingAgent {

    final DigestSigner wallet;
    private final Credentials credentials;

    private PayingAgent(String label) {
        this.wallet = TestKeys.wallet(label);
        this.credentials = Credentials.create(ECKeyPair.create(Hash.sha3(label.getBytes(StandardCharsets.UTF_8))));
    }

    static PayingAgent create() {
        return new PayingAgent("paying-agent-" + UUID.randomUUID());
    }

    String address() {
        return wallet.address();
    }

    /** Opens a channel of 1 USDC with {@code provider} on the devnet. */
    void openChannelWith(Devnet devnet, String provider) {
        devnet.setBalance(credentials.getAddress(), Devnet.GAS_MONEY);
        devnet.fundAndOpen(credentials, provider, BigInteger.valueOf(1_000_000), 86_400);
    }

    /** POSTs {@code json} to {@code path}, signed by this agent's wallet. */
    Http.Reply post(String baseUrl, String path, String json) {
        return post(wallet, baseUrl, path, json);
    }

    /** POSTs {@code json} to {@code path}, with this agent's address but signed by {@code signer}. */
    Http.Reply post(DigestSigner signer, String baseUrl, String path, String json) {
        long now = System.currentTimeMillis() / 1000;
        String nonce = WalletSigning.nonce();
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        WalletRequestMessage signed = new WalletRequestMessage("POST", path, WalletSigning.PROVIDER,
                WalletRequestMessage.bodyHash(body), address(), WalletSigning.CHAIN_ID, WalletSigning.CONTRACT,
                Long.toString(now), nonce);
        return Http.send(HttpRequest.newBuilder(URI.create(baseUrl + path))
                .header("Content-Type", "application/json")
                .header("X-Forwarded-For", Reports.newClient())
                .header(WalletAuthenticator.ADDRESS_HEADER, address())
                .header(WalletAuthenticator.TIMESTAMP_HEADER, Long.toString(now))
                .header(WalletAuthenticator.NONCE_HEADER, nonce)
                .header(WalletAuthenticator.SIGNATURE_HEADER, WalletSigning.sign(signer, signed))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)));
    }
}
