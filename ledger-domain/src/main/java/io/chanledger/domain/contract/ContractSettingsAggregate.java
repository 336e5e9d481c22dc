package io.chanledger.domain.contract;

import static org.axonframework.modelling.command.AggregateLifecycle.apply;

import io.chanledger.domain.chain.ChainRef;
import io.chanledger.domain.eip712.Hex;
import java.util.Locale;
import org.axonframework.commandhandling.CommandHandler;
import org.axonframework.eventsourcing.EventSourcingHandler;
import org.axonframework.modelling.command.AggregateCreationPolicy;
import org.axonframework.modelling.command.AggregateIdentifier;
import org.axonframework.modelling.command.CreationPolicy;

/**
 * The settings of one channel contract that change over its life: its fee and its token. They
 * are facts of the contract, not of any channel, so they have an aggregate of their own, keyed
 * by chain and address. It records each finalized log once, in chain order: a log at or before
 * the last one recorded was recorded already (the listener read its block range again).
 */
class ContractSettingsAggregate {

    @AggregateIdentifier
    private String contractId;
    private ChainRef lastChainRef;

    ContractSettingsAggregate() {
        // required by Axon to source the aggregate from its events
    }

    @CommandHandler
    @CreationPolicy(AggregateCreationPolicy.CREATE_IF_MISSING)
    void handle(RecordFeeUpdate command) {
        if (!command.chainRef().isAfter(lastChainRef)) {
            return; // this log was already recorded
        }
        requireLowercaseAddress(command.feeRecipient(), "fee recipient");
        if (command.feeBps() == null || command.feeBps().signum() < 0) {
            throw new IllegalArgumentException("a fee is a uint256 of basis points, got " + command.feeBps());
        }
        apply(new FeeUpdated(command.contractId(), command.feeRecipient(), command.feeBps(), command.chainRef()));
    }

    @CommandHandler
    @CreationPolicy(AggregateCreationPolicy.CREATE_IF_MISSING)
    void handle(RecordUsdcUpdate command) {
        if (!command.chainRef().isAfter(lastChainRef)) {
            return; // this log was already recorded
        }
        requireLowercaseAddress(command.previousUsdc(), "previous token");
        requireLowercaseAddress(command.usdc(), "token");
        apply(new UsdcUpdated(command.contractId(), command.previousUsdc(), command.usdc(), command.chainRef()));
    }

    @EventSourcingHandler
    void on(FeeUpdated event) {
        contractId = event.contractId();
        lastChainRef = event.chainRef();
    }

    @EventSourcingHandler
    void on(UsdcUpdated event) {
        contractId = event.contractId();
        lastChainRef = event.chainRef();
    }

    private static void requireLowercaseAddress(String address, String what) {
        if (!Hex.isAddress(address) || !address.equals(address.toLowerCase(Locale.ROOT))) {
            throw new IllegalArgumentException("the " + what + " must be a lowercase address, got " + address);
        }
    }
}
