package io.chanledger.projections.marketplace;

import io.chanledger.domain.provider.ModelPrice;
import io.chanledger.domain.provider.ProviderApproved;
import io.chanledger.domain.provider.ProviderInferenceWentOffline;
import io.chanledger.domain.provider.ProviderInferenceWentOnline;
import io.chanledger.domain.provider.ProviderModelsPublished;
import io.chanledger.domain.provider.ProviderRegistered;
import io.chanledger.domain.provider.ProviderScoreUpdated;
import io.chanledger.domain.provider.ProviderSuspended;
import io.chanledger.domain.provider.ProviderWentOffline;
import io.chanledger.domain.provider.ProviderWentOnline;
import io.chanledger.domain.provider.UnitPrice;
import io.chanledger.domain.money.Usdc;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import org.axonframework.eventhandling.ResetHandler;
import org.axonframework.eventhandling.SequenceNumber;
import org.axonframework.messaging.unitofwork.CurrentUnitOfWork;

/**
 * Builds the provider directory (rows, models, status history) from the Provider events. Every
 * handler is idempotent, so a batch handled twice after a crash changes nothing. Once the
 * transaction that wrote a change commits, {@code onChange} runs, so this instance rebuilds its
 * precomputed responses at once; other instances see the change counter move.
 */
@ProcessingGroup(ProviderDirectoryProjection.PROCESSING_GROUP)
public class ProviderDirectoryProjection {

    public static final String PROCESSING_GROUP = "marketplace-providers";

    private final ProviderDirectoryStore store;
    private final Runnable onChange;

    public ProviderDirectoryProjection(ProviderDirectoryStore store, Runnable onChange) {
        this.store = store;
        this.onChange = onChange;
    }

    @EventHandler
    void on(ProviderRegistered event, @SequenceNumber long sequence) {
        store.save(ProviderRow.registered(event));
        store.saveProfile(event.providerId(), event.profile());
        String detail = event.tier().code() + ", " + event.category().code() + ", " + event.apiUrl();
        changed(event.providerId(), new HistoryEntry(sequence, event.registeredAt(), "registered", detail));
    }

    @EventHandler
    void on(ProviderApproved event, @SequenceNumber long sequence) {
        update(event.providerId(), row -> row.approved(event.approvedAt()));
        changed(event.providerId(), new HistoryEntry(sequence, event.approvedAt(), "approved",
                event.automatic() ? "automatically, by tier" : "by the operator"));
    }

    @EventHandler
    void on(ProviderSuspended event, @SequenceNumber long sequence) {
        update(event.providerId(), row -> row.suspended(event.reason(), event.suspendedAt()));
        changed(event.providerId(), new HistoryEntry(sequence, event.suspendedAt(), "suspended", event.reason()));
    }

    @EventHandler
    void on(ProviderScoreUpdated event, @SequenceNumber long sequence) {
        update(event.providerId(), row -> row.scored(event.score()));
        changed(event.providerId(), new HistoryEntry(sequence, event.updatedAt(), "score_updated",
                event.score().toPlainString()));
    }

    @EventHandler
    void on(ProviderModelsPublished event, @SequenceNumber long sequence) {
        update(event.providerId(), row -> row.modelsPublished(event.publishedAt()));
        store.replaceModels(event.providerId(), event.models());
        String detail = event.models().stream().map(ProviderDirectoryProjection::describe)
                .collect(Collectors.joining(", "));
        changed(event.providerId(), new HistoryEntry(sequence, event.publishedAt(), "models_published",
                detail.length() > 1000 ? detail.substring(0, 997) + "..." : detail));
    }

    @EventHandler
    void on(ProviderWentOnline event, @SequenceNumber long sequence) {
        update(event.providerId(), row -> row.wentOnline(event.at()));
        changed(event.providerId(), new HistoryEntry(sequence, event.at(), "online", null));
    }

    @EventHandler
    void on(ProviderWentOffline event, @SequenceNumber long sequence) {
        update(event.providerId(), row -> row.wentOffline(event.reason(), event.at()));
        changed(event.providerId(), new HistoryEntry(sequence, event.at(), "offline",
                event.reason() + " (" + event.consecutiveFailures() + " failed checks)"));
    }

    @EventHandler
    void on(ProviderInferenceWentOnline event, @SequenceNumber long sequence) {
        update(event.providerId(), row -> row.inferenceWentOnline(event.at()));
        changed(event.providerId(), new HistoryEntry(sequence, event.at(), "inference_online", null));
    }

    @EventHandler
    void on(ProviderInferenceWentOffline event, @SequenceNumber long sequence) {
        update(event.providerId(), row -> row.inferenceWentOffline(event.at()));
        changed(event.providerId(), new HistoryEntry(sequence, event.at(), "inference_offline",
                event.reason() + " (" + event.consecutiveFailures() + " failed checks)"));
    }

    @ResetHandler
    void reset() {
        store.clear();
        store.markChanged();
        afterCommit();
    }

    private void update(String providerId, UnaryOperator<ProviderRow> transition) {
        store.find(providerId).map(transition).ifPresent(store::save);
    }

    private void changed(String providerId, HistoryEntry entry) {
        store.appendHistory(providerId, entry);
        store.markChanged();
        afterCommit();
    }

    private void afterCommit() {
        if (CurrentUnitOfWork.isStarted()) {
            CurrentUnitOfWork.get().afterCommit(unitOfWork -> onChange.run());
        } else {
            onChange.run();
        }
    }

    private static String describe(ModelPrice model) {
        UnitPrice units = model.unitPrice();
        if (units != null) {
            return model.id() + " " + Usdc.formatDecimalUsdc(units.perUnit()) + " per unit of " + units.unit() + " ("
                    + units.minUnits() + "-" + units.maxUnits() + ")";
        }
        return model.id() + " " + Usdc.formatDecimalUsdc(model.inputPer1kTokens()) + "/"
                + Usdc.formatDecimalUsdc(model.outputPer1kTokens());
    }
}
