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
 * spelling, which is what every reader renders.
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
        Instant modelsPublishedAt) {

    public ProviderRow {
        additionalCategories = List.copyOf(additionalCategories);
    }

    static ProviderRow registered(ProviderRegistered event) {
        return new ProviderRow(event.providerId(), event.address(), event.name(),
                event.description() == null ? "" : event.description(), event.apiUrl(), event.category().code(),
                event.additionalCategories().stream().map(ProviderCategory::code).toList(), event.tier().code(),
                event.hotkey(), event.uid(), event.docsUrl(), event.registeredAt(), ApprovalState.PENDING.code(),
                null, null, null, false, null, null, null);
    }

    ProviderRow approved(Instant at) {
        return new ProviderRow(providerId, address, name, description, apiUrl, category, additionalCategories, tier,
                hotkey, uid, docsUrl, registeredAt, ApprovalState.APPROVED.code(), at, null, score, online,
                onlineChangedAt, offlineReason, modelsPublishedAt);
    }

    ProviderRow suspended(String reason, Instant at) {
        return new ProviderRow(providerId, address, name, description, apiUrl, category, additionalCategories, tier,
                hotkey, uid, docsUrl, registeredAt, ApprovalState.SUSPENDED.code(), at, reason, score, online,
                onlineChangedAt, offlineReason, modelsPublishedAt);
    }

    ProviderRow scored(BigDecimal newScore) {
        return new ProviderRow(providerId, address, name, description, apiUrl, category, additionalCategories, tier,
                hotkey, uid, docsUrl, registeredAt, approval, approvalChangedAt, suspensionReason, newScore, online,
                onlineChangedAt, offlineReason, modelsPublishedAt);
    }

    ProviderRow wentOnline(Instant at) {
        return new ProviderRow(providerId, address, name, description, apiUrl, category, additionalCategories, tier,
                hotkey, uid, docsUrl, registeredAt, approval, approvalChangedAt, suspensionReason, score, true,
                at, null, modelsPublishedAt);
    }

    ProviderRow wentOffline(String reason, Instant at) {
        return new ProviderRow(providerId, address, name, description, apiUrl, category, additionalCategories, tier,
                hotkey, uid, docsUrl, registeredAt, approval, approvalChangedAt, suspensionReason, score, false,
                at, reason, modelsPublishedAt);
    }

    ProviderRow modelsPublished(Instant at) {
        return new ProviderRow(providerId, address, name, description, apiUrl, category, additionalCategories, tier,
                hotkey, uid, docsUrl, registeredAt, approval, approvalChangedAt, suspensionReason, score, online,
                onlineChangedAt, offlineReason, at);
    }

    public boolean isApproved() {
        return ApprovalState.APPROVED.code().equals(approval);
    }
}
