package io.chanledger.chain.lookup;

import io.chanledger.chain.abi.ChannelContract;
import io.chanledger.chain.rpc.EthApi;
import io.chanledger.chain.rpc.RpcException;
import io.chanledger.chain.tx.RevertReasons;
import io.chanledger.domain.eip712.ChanTypedData;
import io.chanledger.domain.eip712.Eip712Domain;
import io.chanledger.domain.eip712.Hex;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The EIP-712 domain separator the channel contract checks signatures under, read from the
 * contract and compared with the domain the ledger signs and verifies in. The deployed contract
 * exposes {@code DOMAIN_SEPARATOR()}, the project's {@code domainSeparator()}: whichever answers
 * counts. A wrong domain means every voucher the ledger accepts would be refused on-chain, so a
 * mismatch is never a warning.
 */
public final class ContractSigningDomain {

    private static final List<String> GETTERS = List.of(ChannelContract.DOMAIN_SEPARATOR_SELECTOR,
            ChannelContract.DOMAIN_SEPARATOR_CAMEL_CASE_SELECTOR);

    private ContractSigningDomain() {
    }

    /** The configured domain differs from the contract's, or the contract reports none. */
    public static final class MismatchException extends RuntimeException {
        MismatchException(String message) {
            super(message, null, false, false);
        }
    }

    /**
     * The contract's domain separator at the latest block, lowercase 0x-hex; empty when neither
     * getter answers one 32-byte word (no such function, or no contract at the address).
     *
     * @throws RpcException when the node does not answer (a revert is an answer: no such getter)
     */
    public static Optional<String> read(EthApi eth, String contract) {
        for (String selector : GETTERS) {
            String answer;
            try {
                answer = eth.call(null, contract, selector, null, "latest");
            } catch (RpcException e) {
                if (RevertReasons.isRevert(e)) {
                    continue;
                }
                throw e;
            }
            if (Hex.isBytes32(answer)) {
                return Optional.of(answer.toLowerCase(Locale.ROOT));
            }
        }
        return Optional.empty();
    }

    /**
     * Checks that the contract at {@code domain.verifyingContract()} verifies signatures in
     * {@code domain}.
     *
     * @throws MismatchException when it does not, or reports no domain separator at all
     * @throws RpcException      when the node does not answer
     */
    public static void verify(EthApi eth, Eip712Domain domain) {
        String contract = domain.verifyingContract();
        String expected = Hex.encode(new ChanTypedData(domain).domainSeparator());
        String actual = read(eth, contract).orElseThrow(() -> new MismatchException("the contract at " + contract
                + " answers neither DOMAIN_SEPARATOR() nor domainSeparator(): it is not a channel contract"
                + " (or not deployed on this chain)"));
        if (!actual.equals(expected)) {
            throw new MismatchException("the contract at " + contract + " checks signatures under domain separator "
                    + actual + ", but the configured domain (" + domain.name() + ", version " + domain.version()
                    + ", chain " + domain.chainId() + ", contract " + contract + ") gives " + expected
                    + ": every voucher signed for it would be refused on-chain");
        }
    }
}
