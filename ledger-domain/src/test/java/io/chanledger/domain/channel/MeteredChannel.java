package io.chanledger.domain.channel;

import io.chanledger.domain.chain.ChainRef;
import java.math.BigInteger;

/** One metered channel and its events, shared by the tests of the Channel aggregate's metering rules. */
final class MeteredChannel {

    static final String CHANNEL = "0x823da9a7690a95c075e42809132b9efebb72c0f77beca597e756b6033b7c036a";
    static final String CONSUMER = "0x5315f457a01c71a5d7ee87da126af57e8cdeda47";
    static final String PROVIDER = "0x888a81f924fee3dd0be6367484caa4e91ad34a3f";
    static final BigInteger DEPOSIT = BigInteger.valueOf(10_000_000);
    static final long EXPIRY = 1_700_086_400L;
    static final long NOW = EXPIRY - 3_600;
    static final long HOLD_UNTIL = NOW + 600;
    static final ChainRef OPEN_REF = new ChainRef(100, "0x" + "0".repeat(63) + "1", "0x" + "0".repeat(63) + "2", 0);
    static final String SIG = "0x" + "ab".repeat(65);

    private MeteredChannel() {
    }

    static BigInteger units(long value) {
        return BigInteger.valueOf(value);
    }

    static ChannelOpened opened() {
        return new ChannelOpened(CHANNEL, CONSUMER, PROVIDER, DEPOSIT, EXPIRY, OPEN_REF, false, BigInteger.ZERO);
    }

    static AcceptVoucher paying(long amount, long nonce, long hold) {
        return paying(amount, nonce, hold, NOW);
    }

    static AcceptVoucher paying(long amount, long nonce, long hold, long at) {
        return new AcceptVoucher(CHANNEL, units(amount), units(nonce), SIG, CONSUMER, at,
                new MeteredRequest(units(hold), at + 600, PROVIDER));
    }

    static VoucherAccepted held(long amount, long nonce, long increment, long hold, long chargedTotal) {
        return new VoucherAccepted(CHANNEL, units(amount), units(nonce), SIG, units(increment), NOW, units(hold),
                HOLD_UNTIL, units(chargedTotal));
    }

    static RequestSettled settled(long nonce, long cost, long charged, long total) {
        return new RequestSettled(CHANNEL, units(nonce), units(cost), units(charged), units(total), NOW + 5);
    }
}
