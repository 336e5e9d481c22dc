package io.chanledger.api.provider.gateway;

import io.chanledger.api.support.Http;
import io.chanledger.testsupport.Devnet;
import io.chanledger.testsupport.OpenedChannel;
import io.chanledger.domain.eip712.DigestSigner;
import io.chanledger.domain.eip712.Hex;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpRequest;
import java.security.InvalidAlgorithmParameterException;
import java.security.NoSuchAlgorithmException;
import java.security.NoSuchProviderException;
import org.web3j.crypto.Credentials;
import org.web3j.crypto.Keys;
import org.web3j.utils.Numeric;

/**
 * A paying client of the gateway, with a wallet of its own on the devnet: opens a channel with
 * web3j, signs vouchers for it, and calls the provider interface.
 */
public final class Agent {

    /** The system message of {@link #chatBody}. */
    static final String SYSTEM_PROMPT = "Be brief.";

    private static final com.fasterxml.jackson.databind.ObjectMapper JSON = new com.fasterxml.jackson.databind.ObjectMapper();

    public final Credentials wallet;
    private final Devnet devnet;
    private final String baseUrl;
    public String channelId;
    BigInteger deposit;
    long nonce;
    BigInteger authorised = BigInteger.ZERO;

    private Agent(Credentials wallet, Devnet devnet, String baseUrl) {
        this.wallet = wallet;
        this.devnet = devnet;
        this.baseUrl = baseUrl;
    }

    public static Agent create(Devnet devnet, String baseUrl) {
        try {
            Credentials wallet = Credentials.create(Keys.createEcKeyPair());
            devnet.setBalance(wallet.getAddress(), Devnet.GAS_MONEY);
            return new Agent(wallet, devnet, baseUrl);
        } catch (InvalidAlgorithmParameterException | NoSuchAlgorithmException | NoSuchProviderException e) {
            throw new IllegalStateException(e);
        }
    }

    /** This agent's wallet as a client of the provider at {@code otherBaseUrl}, with a channel of its own there to open. */
    public Agent at(String otherBaseUrl) {
        return new Agent(wallet, devnet, otherBaseUrl);
    }

    /** The agent's wallet as a signer of API requests ({@code X-CHAN-Auth-*}). */
    DigestSigner signer() {
        return new DigestSigner(Numeric.toBytesPadded(wallet.getEcKeyPair().getPrivateKey(), 32));
    }

    public String address() {
        return wallet.getAddress().toLowerCase();
    }

    public OpenedChannel open(String provider, BigInteger amount, long durationSeconds) {
        OpenedChannel opened = devnet.fundAndOpen(wallet, provider, amount, durationSeconds);
        channelId = opened.channelId();
        deposit = amount;
        nonce = 0;
        authorised = BigInteger.ZERO;
        return opened;
    }

    /** The running total to sign next: never below what was authorised before, as a client's vouchers go. */
    public BigInteger authorise(BigInteger wanted) {
        authorised = authorised.max(wanted);
        return authorised;
    }

    /** The running total to sign next as the marketplace's client signs it: the previous one plus this estimate. */
    BigInteger budget(BigInteger estimate) {
        authorised = authorised.add(estimate);
        return authorised;
    }

    /** The next voucher of this agent's channel, for a running total of {@code amount}. */
    public String nextVoucher(BigInteger amount) {
        return voucher(channelId, amount, ++nonce);
    }

    String voucher(String channel, BigInteger amount, long voucherNonce) {
        byte[] signature = devnet.signVoucher(wallet, channel, amount, BigInteger.valueOf(voucherNonce));
        return voucherJson(channel, amount.toString(), Long.toString(voucherNonce), Hex.encode(signature));
    }

    static String voucherJson(String channel, String amount, String nonce, String signature) {
        return "{\"channelId\":\"" + channel + "\",\"amount\":\"" + amount + "\",\"nonce\":\"" + nonce
                + "\",\"signature\":\"" + signature + "\"}";
    }

    public Http.Reply chat(String voucher, String body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + "/v1/chat/completions"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (voucher != null) {
            request.header("X-CHAN-Voucher", voucher);
        }
        return Http.send(request);
    }

    /**
     * A request to a service model as agent clients send it: the parameters as the JSON text of
     * the last user message, after a system message.
     */
    public static String serviceBody(String model, String parameters) {
        com.fasterxml.jackson.databind.node.ObjectNode body = JSON.createObjectNode().put("model", model);
        var messages = body.putArray("messages");
        messages.addObject().put("role", "system").put("content", SYSTEM_PROMPT);
        messages.addObject().put("role", "user").put("content", parameters);
        return body.toString();
    }

    public static String chatBody(String model, String content, Integer maxTokens, boolean stream) {
        return "{\"model\":\"" + model + "\",\"messages\":[{\"role\":\"system\",\"content\":\"" + SYSTEM_PROMPT + "\"},"
                + "{\"role\":\"user\",\"content\":\"" + content + "\"}]"
                + (maxTokens == null ? "" : ",\"max_tokens\":" + maxTokens)
                + (stream ? ",\"stream\":true" : "") + "}";
    }
}
