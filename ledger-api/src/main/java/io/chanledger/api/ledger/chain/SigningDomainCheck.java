package io.chanledger.api.ledger.chain;

import io.chanledger.chain.lookup.ContractSigningDomain;
import io.chanledger.chain.rpc.EthApi;
import io.chanledger.chain.rpc.RpcException;
import io.chanledger.domain.eip712.Eip712Domain;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.InitializingBean;

/**
 * At start-up, checks that the configured channel contract verifies signatures in the configured
 * EIP-712 domain, and refuses to start when it does not: every voucher the ledger accepted would
 * be refused on-chain. A node that does not answer is no verdict; the service then starts, and
 * the chain listener makes the same check before it records anything (and halts on a mismatch).
 */
class SigningDomainCheck implements InitializingBean {

    private static final Logger log = LoggerFactory.getLogger(SigningDomainCheck.class);

    private final EthApi eth;
    private final Eip712Domain domain;

    SigningDomainCheck(EthApi eth, Eip712Domain domain) {
        this.eth = eth;
        this.domain = domain;
    }

    @Override
    public void afterPropertiesSet() {
        try {
            ContractSigningDomain.verify(eth, domain);
            log.info("the channel contract {} verifies signatures in the configured EIP-712 domain (chain {})",
                    domain.verifyingContract(), domain.chainId());
        } catch (ContractSigningDomain.MismatchException e) {
            throw new IllegalStateException("refusing to start: " + e.getMessage()
                    + ". Check chan.chain.chain-id and chan.chain.channel-contract.");
        } catch (RpcException e) {
            log.warn("could not read the channel contract's EIP-712 domain from {} ({}); the chain listener checks it"
                    + " once the node answers", eth.client().endpointName(), e.getMessage());
        }
    }
}
