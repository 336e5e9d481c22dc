package io.chanledger.api.support;

import io.chanledger.domain.chain.ChainRef;
import io.chanledger.domain.channel.OpenChannel;
import io.chanledger.domain.eip712.ChanTypedData;
import io.chanledger.domain.eip712.DigestSigner;
import io.chanledger.domain.eip712.Eip712Domain;
import io.chanledger.domain.eip712.Hex;
import java.math.BigInteger;
import java.security.SecureRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.axonframework.commandhandling.gateway.CommandGateway;

/**
 * Opens channels in-process (as the chain listener would from a log) and signs vouchers for them
 * the way a consumer's wallet does, in the deployment's default signing domain.
 */
public final class Channels {

    public static final ChanTypedData TYPED_DATA =
            new ChanTypedData(Eip712Domain.chan(137, "0x5FbDB2315678afecb367f032d93F642f64180aa3"));
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final AtomicLong BLOCKS = new AtomicLong(1_000);

    private Channels() {
    }

    public static String randomChannelId() {
        byte[] id = new byte[32];
        RANDOM.nextBytes(id);
        return Hex.encode(id);
    }

    public static ChainRef nextChainRef() {
        long block = BLOCKS.incrementAndGet();
        return new ChainRef(block, Hex.encode(BigInteger.valueOf(block).toByteArray()), randomChannelId(), 0);
    }

    /** Opens a channel from consumer to provider and returns its id. */
    public static String open(CommandGateway commands, DigestSigner consumer, DigestSigner provider,
                              BigInteger deposit, long expiry) {
        String channelId = randomChannelId();
        commands.sendAndWait(new OpenChannel(channelId, consumer.address(), provider.address(), deposit, expiry,
                nextChainRef()));
        return channelId;
    }

    public static String sign(DigestSigner consumer, String channelId, BigInteger amount, BigInteger nonce) {
        return Hex.encode(consumer.sign(TYPED_DATA.voucherDigest(Hex.decode(channelId), amount, nonce)));
    }

    /** The X-CHAN-Voucher JSON of a voucher signed by {@code consumer}. */
    public static String voucherJson(DigestSigner consumer, String channelId, long amount, long nonce) {
        BigInteger a = BigInteger.valueOf(amount);
        BigInteger n = BigInteger.valueOf(nonce);
        return "{\"channelId\":\"" + channelId + "\",\"amount\":\"" + a + "\",\"nonce\":\"" + n
                + "\",\"signature\":\"" + sign(consumer, channelId, a, n) + "\"}";
    }
}
