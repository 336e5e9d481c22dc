package io.chanledger.chain.contract;

import static io.chanledger.chain.contract.UsdcAuthorizationTest.PAYEE;
import static io.chanledger.chain.contract.UsdcAuthorizationTest.PAYER;
import static io.chanledger.chain.contract.UsdcAuthorizationTest.RELAYER;
import static io.chanledger.chain.contract.UsdcAuthorizationTest.USDC;
import static io.chanledger.chain.contract.UsdcAuthorizationTest.VALUE;
import static io.chanledger.testsupport.UsdcAuthorizations.SignatureForm.BYTES;
import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.Arrays;

import io.chanledger.testsupport.Authorization;
import io.chanledger.testsupport.ChannelSignatures;
import io.chanledger.testsupport.Devnet;
import io.chanledger.testsupport.DevnetAccounts;
import io.chanledger.testsupport.UsdcAuthorizations;
import io.chanledger.testsupport.UsdcAuthorizations.SignatureForm;
import io.chanledger.testsupport.UsdcSignatures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.web3j.crypto.Credentials;
import org.web3j.crypto.ECDSASignature;
import org.web3j.crypto.Keys;
import org.web3j.crypto.Sign;
import org.web3j.protocol.core.methods.response.TransactionReceipt;
import org.web3j.utils.Numeric;

/**
 * Whose signatures the devnet's USDC takes for an authorization: {@code from}'s, in exactly one
 * encoding (low s, v 27 or 28, 65 bytes), over this token on this chain; or, when {@code from} is a
 * contract wallet, whatever it vouches for through ERC-1271. As FiatToken does, and unlike the
 * channel contract, v of 0 or 1 is refused.
 */
class UsdcSignatureRuleTest extends ContractTestSupport {

    private static final String INVALID = "Error: FiatTokenV2: invalid signature";
    private static final BigInteger CURVE_ORDER = Sign.CURVE_PARAMS.getN();

    private static Authorization authorization() {
        long now = DEVNET.latestBlockTimestamp().longValueExact();
        return Authorization.of(PAYER.getAddress(), PAYEE.getAddress(), VALUE, 0, now + 3600);
    }

    @ParameterizedTest
    @EnumSource(SignatureForm.class)
    void aSignatureByAnyoneButFromIsRefused(SignatureForm form) {
        Authorization authorization = authorization();
        BigInteger payer = balance(PAYER);

        for (Credentials signer : new Credentials[] {RELAYER, PAYEE, DevnetAccounts.STRANGER_1}) {
            assertReverts(() -> USDC.transferWithAuthorization(RELAYER, authorization,
                    USDC.signTransfer(signer, authorization), form), INVALID);
        }
        assertThat(balance(PAYER)).isEqualTo(payer);
        assertThat(USDC.authorizationState(PAYER.getAddress(), authorization.nonce())).isFalse();
    }

    @Test
    void aSignatureIsForItsOwnFieldsOnly() {
        Authorization authorization = authorization();
        byte[] signature = USDC.signTransfer(PAYER, authorization);

        assertReverts(() -> USDC.transferWithAuthorization(RELAYER, authorization.withValue(VALUE.add(BigInteger.ONE)),
                signature, BYTES), INVALID);
        Authorization redirected = new Authorization(PAYER.getAddress(), RELAYER.getAddress(), VALUE,
                authorization.validAfter(), authorization.validBefore(), authorization.nonce());
        assertReverts(() -> USDC.transferWithAuthorization(RELAYER, redirected, signature, BYTES), INVALID);
        // a transfer authorization is no receive authorization, even sent by its payee
        assertReverts(() -> USDC.receiveWithAuthorization(PAYEE, authorization, signature, BYTES), INVALID);
    }

    @Test
    void aSignatureForAnotherTokenOrChainIsRefusedHere() {
        Authorization authorization = authorization();
        String otherToken = DEVNET.deployTestUsdc(RELAYER);
        byte[] forOtherToken = ChannelSignatures.sign(UsdcSignatures.transferDigest(
                UsdcSignatures.domainSeparator(DEVNET.chainId(), otherToken), authorization), PAYER);
        byte[] forAmoy = ChannelSignatures.sign(UsdcSignatures.transferDigest(
                UsdcSignatures.domainSeparator(80_002, Devnet.POLYGON_USDC), authorization), PAYER);

        assertReverts(() -> USDC.transferWithAuthorization(RELAYER, authorization, forOtherToken, BYTES), INVALID);
        assertReverts(() -> USDC.transferWithAuthorization(RELAYER, authorization, forAmoy, BYTES), INVALID);

        // the other token takes it: the refusal above is the domain's, not the signature's
        DEVNET.mint(otherToken, PAYER.getAddress(), VALUE);
        new UsdcAuthorizations(DEVNET.rpc(), otherToken, DEVNET.chainId())
                .transferWithAuthorization(RELAYER, authorization, forOtherToken, BYTES);
        assertThat(USDC.authorizationState(PAYER.getAddress(), authorization.nonce())).isFalse();
    }

    @ParameterizedTest
    @EnumSource(SignatureForm.class)
    void theHighSTwinOfAValidSignatureIsRefused(SignatureForm form) {
        Authorization authorization = authorization();
        byte[] signature = USDC.signTransfer(PAYER, authorization);
        BigInteger r = Numeric.toBigInt(Arrays.copyOfRange(signature, 0, 32));
        BigInteger highS = CURVE_ORDER.subtract(Numeric.toBigInt(Arrays.copyOfRange(signature, 32, 64)));
        int flippedV = signature[64] == 27 ? 28 : 27;

        // plain ecrecover would still find the payer: only the bound on s keeps the twin out
        byte[] digest = UsdcSignatures.transferDigest(USDC.domainSeparator(), authorization);
        BigInteger recovered = Sign.recoverFromSignature(flippedV - 27, new ECDSASignature(r, highS), digest);
        assertThat("0x" + Keys.getAddress(recovered)).isEqualTo(PAYER.getAddress());
        assertReverts(() -> USDC.transferWithAuthorization(RELAYER, authorization, signature(r, highS, flippedV), form),
                "Error: ECRecover: invalid signature 's' value");
    }

    @ParameterizedTest
    @EnumSource(SignatureForm.class)
    void everyVButTwentySevenAndTwentyEightIsRefused(SignatureForm form) {
        Authorization authorization = authorization();
        byte[] signature = USDC.signTransfer(PAYER, authorization);
        for (int v : new int[] {signature[64] - 27, 2, 26, 29, 35, 255}) {
            byte[] mutated = signature.clone();
            mutated[64] = (byte) v;
            assertReverts(() -> USDC.transferWithAuthorization(RELAYER, authorization, mutated, form),
                    "Error: ECRecover: invalid signature 'v' value");
        }
    }

    @Test
    void aSignatureOfAnyLengthButSixtyFiveBytesIsRefused() {
        Authorization authorization = authorization();
        byte[] signature = USDC.signTransfer(PAYER, authorization);
        for (byte[] malformed : new byte[][] {Arrays.copyOf(signature, 64), Arrays.copyOf(signature, 66), new byte[0]}) {
            assertReverts(() -> USDC.transferWithAuthorization(RELAYER, authorization, malformed, BYTES),
                    "Error: ECRecover: invalid signature length");
        }
    }

    @Test
    void aContractWalletPaysWithWhatItVouchesForThroughErc1271() {
        Credentials owner = DevnetAccounts.anvil(4);
        String wallet = USDC.deployTestWallet(RELAYER, owner.getAddress());
        DEVNET.mint(wallet, VALUE);
        long now = DEVNET.latestBlockTimestamp().longValueExact();
        Authorization authorization = Authorization.of(wallet, PAYEE.getAddress(), VALUE, 0, now + 3600);
        BigInteger payee = balance(PAYEE);

        // an EOA-style signature of the wallet is not asked for: the wallet answers, and refuses a stranger's
        assertReverts(() -> USDC.transferWithAuthorization(RELAYER, authorization,
                USDC.signTransfer(PAYER, authorization), BYTES), INVALID);
        TransactionReceipt receipt = USDC.transferWithAuthorization(RELAYER, authorization,
                USDC.signTransfer(owner, authorization), BYTES);

        assertThat(USDC.eventNames(receipt)).containsExactly("AuthorizationUsed", "Transfer");
        assertThat(Devnet.topicAddress(USDC.logs(receipt, "AuthorizationUsed").getFirst(), 1)).isEqualTo(wallet);
        assertThat(balance(wallet)).isZero();
        assertThat(balance(PAYEE)).isEqualTo(payee.add(VALUE));
        assertThat(USDC.authorizationState(wallet, authorization.nonce())).isTrue();
    }

    @Test
    void aContractWithoutErc1271IsNoSigner() {
        // the channel contract has code but no isValidSignature: its call reverts, which is a refusal
        long now = DEVNET.latestBlockTimestamp().longValueExact();
        Authorization authorization = Authorization.of(DEVNET.channelAddress(), PAYEE.getAddress(), BigInteger.ONE, 0,
                now + 3600);

        assertReverts(() -> USDC.transferWithAuthorization(RELAYER, authorization,
                USDC.signTransfer(PAYER, authorization), BYTES), INVALID);
    }

    private static byte[] signature(BigInteger r, BigInteger s, int v) {
        return ByteBuffer.allocate(65).put(Numeric.toBytesPadded(r, 32)).put(Numeric.toBytesPadded(s, 32))
                .put((byte) v).array();
    }
}
