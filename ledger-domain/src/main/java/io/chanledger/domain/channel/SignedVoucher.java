package io.chanledger.domain.channel;

import io.chanledger.domain.eip712.ChanTypedData;
import io.chanledger.domain.eip712.ContractSignatureRule;
import io.chanledger.domain.eip712.Hex;
import io.chanledger.domain.eip712.SignatureVerdict;
import io.chanledger.domain.money.InvalidUint256Exception;
import io.chanledger.domain.money.Uint256;
import java.math.BigInteger;
import java.util.Locale;

/**
 * A voucher as presented in {@code X-CHAN-Voucher}, parsed strictly: a bytes32 channel id,
 * decimal uint256 amount and nonce, and a hex signature (its length is judged by the signature
 * rule, not here, so a 64- or 66-byte signature is an invalid signature, as on-chain). The one
 * place these are checked: a voucher that exists is well formed, wherever it travels.
 */
public record SignedVoucher(String channelId, BigInteger amount, BigInteger nonce, byte[] signature) {

    /** Signatures longer than this cannot be 65 bytes; reading them further is pointless. */
    private static final int MAX_SIGNATURE_BYTES = 1024;

    /** Throws {@link VoucherRejectedException} ({@code invalid_voucher_format}) for a malformed voucher. */
    public SignedVoucher {
        if (channelId == null || !Hex.isBytes32(channelId)) {
            throw format("channelId must be 0x followed by 64 hex digits");
        }
        channelId = channelId.toLowerCase(Locale.ROOT);
        if (!Uint256.fits(amount) || !Uint256.fits(nonce)) {
            throw format("amount and nonce must be uint256 values");
        }
        if (signature == null || signature.length > MAX_SIGNATURE_BYTES) {
            throw format("signature must be 0x-prefixed hex of 65 bytes");
        }
    }

    public static SignedVoucher parse(String channelId, String amount, String nonce, String signature) {
        BigInteger parsedAmount = uint256("amount", amount);
        BigInteger parsedNonce = uint256("nonce", nonce);
        if (signature == null || signature.length() > 2 + 2 * MAX_SIGNATURE_BYTES) {
            throw format("signature must be 0x-prefixed hex of 65 bytes");
        }
        byte[] signatureBytes;
        try {
            signatureBytes = Hex.decode(signature);
        } catch (IllegalArgumentException e) {
            throw format("signature: " + e.getMessage());
        }
        return new SignedVoucher(channelId, parsedAmount, parsedNonce, signatureBytes);
    }

    /** Applies the contract's signature rule to this voucher's EIP-712 digest. */
    public SignatureVerdict verify(ChanTypedData typedData) {
        byte[] digest = typedData.voucherDigest(Hex.decode(channelId), amount, nonce);
        return ContractSignatureRule.recover(digest, signature);
    }

    public String signatureHex() {
        return Hex.encode(signature);
    }

    /** The command for the Channel aggregate once the signature has been recovered. */
    public AcceptVoucher toCommand(String signer, long receivedAt) {
        return toCommand(signer, receivedAt, null);
    }

    /** The command for a voucher that pays for {@code request} at the provider gateway (null: a plain voucher). */
    public AcceptVoucher toCommand(String signer, long receivedAt, MeteredRequest request) {
        return new AcceptVoucher(this, signer, receivedAt, request, null);
    }

    private static BigInteger uint256(String field, String text) {
        try {
            return Uint256.parseDecimal(text);
        } catch (InvalidUint256Exception e) {
            throw format(field + ": " + e.getMessage());
        }
    }

    private static VoucherRejectedException format(String detail) {
        return new VoucherRejectedException(VoucherRejection.INVALID_VOUCHER_FORMAT, detail);
    }
}
