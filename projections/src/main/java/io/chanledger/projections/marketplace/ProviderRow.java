package io.chanledger.projections.marketplace;

import io.chanledger.domain.provider.ApprovalState;
import io.chanledger.domain.provider.ProviderCategory;
import io.chanledger.domain.provider.ProviderRegistered;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

/**
 * One row of the provider directory as the Provider events make it. Immutable: every event gives
 * a new row through one transition method. Categories, tier and approval are kept in their wire
 * spelling, which is what every reader renders. {@code online} is the pricing side (its
 * {@code /v1/models} and {@code /v1/pricing} answer), {@code inferenceOnline} the inference side
 * ({@code /v1/docs} and the 402 of {@code POST /v1/chat/completions}); agents are shown a provider
 * only when both are up ({@link ProviderView#online()}).
 */
public record ProviderRow(
        String providerId,
        String address,
        String name,
        String description,
        String apiUrl,
        String category,
        List<String> additionalCategories,
        String tier,
        String hotkey,
        Integer uid,
        String docsUrl,
        Instant registeredAt,
        String approval,
        Instant approvalChangedAt,
        String suspensionReason,
        BigDecimal score,
        boolean online,
        Instant onlineChangedAt,
        String offlineReason,
        Instant modelsPublishedAt,
        boolean inferenceOnline,
        Instant inferenceChangedAt) {

    public ProviderRow {
        additionalCategories = List.copyOf(additionalCategories);
    }

    static ProviderRow registered(ProviderRegistered event) {
        return new ProviderRow(event.providerId(), event.address(), event.name(),
                event.description() == null ? "" : event.description(), event.apiUrl(), event.category().code(),
                event.additionalCategories().stream().map(ProviderCategory::code).toList(), event.tier().code(),
                event.hotkey(), event.uid(), event.docsUrl(), event.registeredAt(), ApprovalState.PENDING.code(),
                null, null, null, false, null, null, null, false, null);
    }

    ProviderRow approved(Instant at) {
        return new ProviderRow(providerId, address, name, description, apiUrl, category, additionalCategories, tier,
                hotkey, uid, docsUrl, registeredAt, ApprovalState.APPROVED.code(), at, null, score, online,
                onlineChangedAt, offlineReason, modelsPublishedAt, inferenceOnline,
                inferenceChangedAt);
    }

    ProviderRow suspended(String reason, Instant at) {
        return new ProviderRow(providerId, address, name, description, apiUrl, category, additionalCategories, tier,
                hotkey, uid, docsUrl, registeredAt, ApprovalState.SUSPENDED.code(), at, reason, score, online,
                onlineChangedAt, offlineReason, modelsPublishedAt, inferenceOnline,
                inferenceChangedAt);
    }

    ProviderRow scored(BigDecimal newScore) {
        return new ProviderRow(providerId, address, name, description, apiUrl, category, additionalCategories, tier,
                hotkey, uid, docsUrl, registeredAt, approval, approvalChangedAt, suspensionReason, newScore, online,
                onlineChangedAt, offlineReason, modelsPublishedAt, inferenceOnline,
                inferenceChangedAt);
    }

    ProviderRow wentOnline(Instant at) {
        return new ProviderRow(providerId, address, name, description, apiUrl, category, additionalCategories, tier,
                hotkey, uid, docsUrl, registeredAt, approval, approvalChangedAt, suspensionReason, score, true,
                at, null, modelsPublishedAt, inferenceOnline,
                inferenceChangedAt);
    }

    ProviderRow wentOffline(String reason, Instant at) {
        return new ProviderRow(providerId, address, name, description, apiUrl, category, additionalCategories, tier,
                hotkey, uid, docsUrl, registeredAt, approval, approvalChangedAt, suspensionReason, score, false,
                at, reason, modelsPublishedAt, inferenceOnline,
                inferenceChangedAt);
    }

    ProviderRow modelsPublished(Instant at) {
        return new ProviderRow(providerId, address, name, description, apiUrl, category, additionalCategories, tier,
                hotkey, uid, docsUrl, registeredAt, approval, approvalChangedAt, suspensionReason, score, online,
                onlineChangedAt, offlineReason, at, inferenceOnline,
                inferenceChangedAt);
    }

    ProviderRow inferenceWentOnline(Instant at) {
        return new ProviderRow(providerId, address, name, description, apiUrl, category, additionalCategories, tier,
                hotkey, uid, docsUrl, registeredAt, approval, approvalChangedAt, suspensionReason, score, online,
                onlineChangedAt, offlineReason, modelsPublishedAt, true, at);
    }

    ProviderRow inferenceWentOffline(Instant at) {
        return new ProviderRow(providerId, address, name, description, apiUrl, category, additionalCategories, tier,
                hotkey, uid, docsUrl, registeredAt, approval, approvalChangedAt, suspensionReason, score, online,
                onlineChangedAt, offlineReason, modelsPublishedAt, false, at);
    }

    public boolean isApproved() {
        return ApprovalState.APPROVED.code().equals(approval);
    }
}
