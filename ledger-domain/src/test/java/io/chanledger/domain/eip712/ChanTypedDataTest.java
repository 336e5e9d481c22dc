package io.chanledger.domain.eip712;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.chanledger.domain.money.Uint256;
import java.math.BigInteger;
import org.junit.jupiter.api.Test;

class ChanTypedDataTest {

    private static final String CONTRACT = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
    private static final ChanTypedData TYPED = new ChanTypedData(Eip712Domain.chan(137, CONTRACT));
    private static final byte[] CHANNEL = new byte[32];

    @Test
    void refusesAmountsOutsideUint256() {
        assertThatThrownBy(() -> TYPED.voucherDigest(CHANNEL, BigInteger.ONE.negate(), BigInteger.ONE))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("amount");
        assertThatThrownBy(() -> TYPED.voucherDigest(CHANNEL, Uint256.MAX.add(BigInteger.ONE), BigInteger.ONE))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> TYPED.closeAuthorizationDigest(CHANNEL, null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("finalAmount");
    }

    @Test
    void refusesChannelIdsThatAreNot32Bytes() {
        assertThatThrownBy(() -> TYPED.voucherDigest(new byte[31], BigInteger.ONE, BigInteger.ONE))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("channelId");
    }

    @Test
    void domainSeparatorIsACopy() {
        byte[] separator = TYPED.domainSeparator();
        separator[0] ^= 1;
        assertThat(TYPED.domainSeparator()).isNotEqualTo(separator);
    }

    @Test
    void theDomainKeepsTheContractInLowercaseAndRefusesABrokenChecksum() {
        assertThat(TYPED.domain().verifyingContract()).isEqualTo(CONTRACT.toLowerCase());
        assertThatThrownBy(() -> Eip712Domain.chan(137, CONTRACT.replace('F', 'f')))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Eip712Domain.chan(0, CONTRACT)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void amountsAbove2To255AreEncodedWithoutTheirSignByte() {
        BigInteger high = BigInteger.ONE.shiftLeft(255).add(BigInteger.valueOf(5));
        byte[] word = new byte[32];
        Words.putUint256(word, 0, high, "amount");
        assertThat(new BigInteger(1, word)).isEqualTo(high);
    }
}
