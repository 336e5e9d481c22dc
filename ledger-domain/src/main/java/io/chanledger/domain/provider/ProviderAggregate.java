package io.chanledger.domain.provider;

import static org.axonframework.modelling.command.AggregateLifecycle.apply;

import io.chanledger.domain.eip712.Hex;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import org.axonframework.commandhandling.CommandHandler;
import org.axonframework.eventsourcing.EventSourcingHandler;
import org.axonframework.modelling.command.AggregateIdentifier;

/**
 * One provider of the marketplace, identified by the id derived from its payment address (see
 * {@link ProviderIds}). Decides what is worth recording: a health check that finds nothing new
 * (same status, same prices) records nothing. Time comes in every command.
 */
class ProviderAggregate {

    private static final int MAX_REASON_LENGTH = 500;

    @AggregateIdentifier
    private String providerId;
    private ApprovalState approval;
    private boolean online;
    /** Whether agents can be served: docs and the 402 of the chat endpoint (docs/protocol.md §D.7); unknown is down. */
    private boolean inferenceOnline;
    private BigDecimal score;
    private List<ModelPrice> models = List.of();

    ProviderAggregate() {
        // required by Axon to source the aggregate from its events
    }

    @CommandHandler
    ProviderAggregate(RegisterProvider command) {
        guardRegistration(command);
        Instant at = command.registeredAt();
        apply(new ProviderRegistered(command.providerId(), command.address(), command.name(), command.description(),
                command.apiUrl(), command.category(), command.additionalCategories(), command.tier(),
                command.hotkey(), command.uid(), command.docsUrl(), at, command.profile()));
        apply(new ProviderModelsPublished(command.providerId(), command.models(), at));
        // the connection test that admitted the registration is the provider's first health check
        apply(new ProviderWentOnline(command.providerId(), at));
        if (command.autoApprove()) {
            apply(new ProviderApproved(command.providerId(), at, true));
        }
    }

    private static void guardRegistration(RegisterProvider command) {
        if (command.address() == null || !Hex.isAddress(command.address())
                || !command.address().equals(command.address().toLowerCase(Locale.ROOT))) {
            throw new ProviderRejectedException(ProviderRejection.INVALID_REGISTRATION,
                    "the provider address must be lowercase 0x followed by 40 hex digits");
        }
        if (!ProviderIds.forAddress(command.address()).equals(command.providerId())) {
            throw new ProviderRejectedException(ProviderRejection.ID_NOT_DERIVED_FROM_ADDRESS,
                    "provider id " + command.providerId() + " is not the id of " + command.address());
        }
        if (isBlank(command.name()) || isBlank(command.apiUrl()) || command.category() == null
                || command.tier() == null || command.registeredAt() == null) {
            throw new ProviderRejectedException(ProviderRejection.INVALID_REGISTRATION,
                    "name, apiUrl, category, tier and the registration time are required");
        }
        if (command.tier() == ProviderTier.BITTENSOR && (isBlank(command.hotkey()) || command.uid() == null)) {
            throw new ProviderRejectedException(ProviderRejection.BITTENSOR_IDENTITY_MISSING,
                    "a bittensor provider needs its hotkey and uid");
        }
        if (command.models().isEmpty()) {
            throw new ProviderRejectedException(ProviderRejection.NO_MODELS, "a provider needs at least one priced model");
        }
    }

    @CommandHandler
    void handle(ApproveProvider command) {
        if (approval == ApprovalState.APPROVED) {
            return;
        }
        apply(new ProviderApproved(providerId, command.approvedAt(), false));
    }

    @CommandHandler
    void handle(SuspendProvider command) {
        if (approval == ApprovalState.SUSPENDED) {
            return;
        }
        String reason = command.reason() == null || command.reason().isBlank() ? "suspended by the operator"
                : truncate(command.reason());
        apply(new ProviderSuspended(providerId, reason, command.suspendedAt()));
    }

    @CommandHandler
    void handle(UpdateProviderScore command) {
        BigDecimal value = command.score();
        if (value == null || value.signum() < 0 || value.compareTo(BigDecimal.ONE) > 0) {
            throw new ProviderRejectedException(ProviderRejection.SCORE_OUT_OF_RANGE,
                    "a score lies between 0 and 1, got " + value);
        }
        if (score != null && score.compareTo(value) == 0) {
            return;
        }
        apply(new ProviderScoreUpdated(providerId, value.stripTrailingZeros(), command.updatedAt()));
    }

    @CommandHandler
    void handle(PublishProviderModels command) {
        if (command.models().isEmpty()) {
            throw new ProviderRejectedException(ProviderRejection.NO_MODELS, "a provider needs at least one priced model");
        }
        if (command.models().equals(models)) {
            return;
        }
        apply(new ProviderModelsPublished(providerId, command.models(), command.publishedAt()));
    }

    /** Returns whether the provider went online with this command (false: it already was). */
    @CommandHandler
    boolean handle(RecordProviderOnline command) {
        if (online) {
            return false;
        }
        apply(new ProviderWentOnline(providerId, command.checkedAt()));
        return true;
    }

    /** Returns whether the provider went offline with this command (false: it already was). */
    @CommandHandler
    boolean handle(RecordProviderOffline command) {
        if (!online) {
            return false;
        }
        String reason = command.reason() == null ? "no answer" : truncate(command.reason());
        apply(new ProviderWentOffline(providerId, reason, command.consecutiveFailures(), command.checkedAt()));
        return true;
    }

    /** Returns whether the provider's inference status changed with this command. */
    @CommandHandler
    boolean handle(RecordProviderInference command) {
        if (command.up() == inferenceOnline) {
            return false;
        }
        if (command.up()) {
            apply(new ProviderInferenceWentOnline(providerId, command.checkedAt()));
        } else {
            String reason = command.reason() == null ? "no answer" : truncate(command.reason());
            apply(new ProviderInferenceWentOffline(providerId, reason, command.consecutiveFailures(),
                    command.checkedAt()));
        }
        return true;
    }

    @EventSourcingHandler
    void on(ProviderRegistered event) {
        providerId = event.providerId();
        approval = ApprovalState.PENDING;
    }

    @EventSourcingHandler
    void on(ProviderApproved event) {
        approval = ApprovalState.APPROVED;
    }

    @EventSourcingHandler
    void on(ProviderSuspended event) {
        approval = ApprovalState.SUSPENDED;
    }

    @EventSourcingHandler
    void on(ProviderScoreUpdated event) {
        score = event.score();
    }

    @EventSourcingHandler
    void on(ProviderModelsPublished event) {
        models = event.models();
    }

    @EventSourcingHandler
    void on(ProviderWentOnline event) {
        online = true;
    }

    @EventSourcingHandler
    void on(ProviderWentOffline event) {
        online = false;
    }

    @EventSourcingHandler
    void on(ProviderInferenceWentOnline event) {
        inferenceOnline = true;
    }

    @EventSourcingHandler
    void on(ProviderInferenceWentOffline event) {
        inferenceOnline = false;
    }

    private static boolean isBlank(String text) {
        return text == null || text.isBlank();
    }

    private static String truncate(String text) {
        return text.length() <= MAX_REASON_LENGTH ? text : text.substring(0, MAX_REASON_LENGTH);
    }
}
