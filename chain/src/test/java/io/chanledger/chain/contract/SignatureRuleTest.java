package io.chanledger.chain.contract;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

import io.chanledger.testsupport.CallOutcome;
import io.chanledger.testsupport.ChannelSignatures;
import io.chanledger.testsupport.OpenedChannel;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.web3j.crypto.ECDSASignature;
import org.web3j.crypto.Keys;
import org.web3j.crypto.Sign;
import org.web3j.utils.Numeric;

/** Which voucher signatures {@code claim} accepts: docs/protocol.md §B.1. */
class SignatureRuleTest extends ContractTestSupport {

    private static final BigInteger CURVE_ORDER = Sign.CURVE_PARAMS.getN();
    private static final BigInteger NONCE = BigInteger.ONE;

    private OpenedChannel channel;

    @BeforeEach
    void openAChannel() {
        channel = openChannel(DEPOSIT, ONE_DAY);
    }

    @Test
    void acceptsVOf27And28() {
        Map<Integer, Long> amountByV = amountsSignedWithEachV();
        amountByV.forEach((v, amount) ->
                assertThat(simulate(amount, voucher(channel, amount, 1))).as("v = %d", v).isEqualTo(CallOutcome.succeeded()));
    }

    @Test
    void acceptsVOf0And1AsThoughTheyWere27And28() {
        Map<Integer, Long> amountByV = amountsSignedWithEachV();
        amountByV.forEach((v, amount) -> {
            byte[] signature = voucher(channel, amount, 1);
            signature[64] = (byte) (v - 27);
            assertThat(simulate(amount, signature)).as("v = %d", v - 27).isEqualTo(CallOutcome.succeeded());
        });
    }

    @Test
    void rejectsTheHighSTwinOfAValidSignature() {
        byte[] signature = voucher(channel, 100_000, 1);
        BigInteger r = Numeric.toBigInt(Arrays.copyOfRange(signature, 0, 32));
        BigInteger highS = CURVE_ORDER.subtract(Numeric.toBigInt(Arrays.copyOfRange(signature, 32, 64)));
        int flippedV = signature[64] == 27 ? 28 : 27;
        byte[] twin = signature(r, highS, flippedV);

        // Plain ecrecover would still find the consumer: only the s bound keeps the twin out.
        BigInteger recovered = Sign.recoverFromSignature(flippedV - 27, new ECDSASignature(r, highS), digest(100_000));
        assertThat("0x" + Keys.getAddress(recovered)).isEqualTo(CONSUMER.getAddress());
        assertRejected(simulate(100_000, twin), "InvalidSignature");
    }

    @Test
    void rejectsEveryOtherV() {
        byte[] signature = voucher(channel, 100_000, 1);
        for (int v : new int[] {2, 25, 26, 29, 30, 35, 36, 255}) {
            byte[] mutated = signature.clone();
            mutated[64] = (byte) v;
            assertThat(simulate(100_000, mutated)).as("v = %d", v).isEqualTo(CallOutcome.reverted("InvalidSignature"));
        }
    }

    @Test
    void rejectsA64ByteCompactSignature() {
        byte[] signature = voucher(channel, 100_000, 1);
        BigInteger yParityAndS = Numeric.toBigInt(Arrays.copyOfRange(signature, 32, 64));
        if (signature[64] == 28) {
            yParityAndS = yParityAndS.setBit(255);
        }
        byte[] compact = new byte[64];
        System.arraycopy(signature, 0, compact, 0, 32);
        System.arraycopy(Numeric.toBytesPadded(yParityAndS, 32), 0, compact, 32, 32);
        assertRejected(simulate(100_000, compact), "InvalidSignature");
    }

    @Test
    void rejectsAnyLengthOtherThan65() {
        byte[] signature = voucher(channel, 100_000, 1);
        assertRejected(simulate(100_000, Arrays.copyOf(signature, 66)), "InvalidSignature");
        assertRejected(simulate(100_000, Arrays.copyOf(signature, 64)), "InvalidSignature");
        assertRejected(simulate(100_000, new byte[0]), "InvalidSignature");
    }

    @Test
    void rejectsASignatureThatRecoversToTheZeroAddress() {
        byte[] signature = voucher(channel, 100_000, 1);
        BigInteger s = Numeric.toBigInt(Arrays.copyOfRange(signature, 32, 64));
        assertRejected(simulate(100_000, signature(BigInteger.ZERO, s, signature[64])), "InvalidSignature");
        assertRejected(simulate(100_000, signature(BigInteger.ONE, BigInteger.ZERO, 27)), "InvalidSignature");
        assertRejected(simulate(100_000, signature(CURVE_ORDER, s, signature[64])), "InvalidSignature");
    }

    private CallOutcome simulate(long amount, byte[] signature) {
        return DEVNET.callClaim(PROVIDER.getAddress(), channel.channelId(), usdc(amount), NONCE, signature);
    }

    private byte[] digest(long amount) {
        byte[] domain = ChannelSignatures.domainSeparator(DEVNET.chainId(), DEVNET.channelAddress());
        return ChannelSignatures.voucherDigest(domain, channel.channelId(), usdc(amount), NONCE);
    }

    /** A voucher amount whose signature carries v = 27 and one with v = 28. */
    private Map<Integer, Long> amountsSignedWithEachV() {
        Map<Integer, Long> amountByV = new HashMap<>();
        for (long amount = 1; amountByV.size() < 2; amount++) {
            amountByV.putIfAbsent((int) voucher(channel, amount, 1)[64], amount);
        }
        return amountByV;
    }

    private static byte[] signature(BigInteger r, BigInteger s, int v) {
        byte[] signature = new byte[65];
        System.arraycopy(Numeric.toBytesPadded(r, 32), 0, signature, 0, 32);
        System.arraycopy(Numeric.toBytesPadded(s, 32), 0, signature, 32, 32);
        signature[64] = (byte) v;
        return signature;
    }
}
