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

    /** A row with nothing set: callers name each value they set. */
    public static Builder builder() {
        return new Builder();
    }

    /** This row's values, to change some of them. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    static ProviderRow registered(ProviderRegistered event) {
        return builder().providerId(event.providerId()).address(event.address()).name(event.name())
                .description(event.description() == null ? "" : event.description()).apiUrl(event.apiUrl())
                .category(event.category().code())
                .additionalCategories(event.additionalCategories().stream().map(ProviderCategory::code).toList())
                .tier(event.tier().code()).hotkey(event.hotkey()).uid(event.uid()).docsUrl(event.docsUrl())
                .registeredAt(event.registeredAt()).approval(ApprovalState.PENDING.code()).build();
    }

    ProviderRow approved(Instant at) {
        return toBuilder().approval(ApprovalState.APPROVED.code()).approvalChangedAt(at).suspensionReason(null).build();
    }

    ProviderRow suspended(String reason, Instant at) {
        return toBuilder().approval(ApprovalState.SUSPENDED.code()).approvalChangedAt(at).suspensionReason(reason)
                .build();
    }

    ProviderRow scored(BigDecimal newScore) {
        return toBuilder().score(newScore).build();
    }

    ProviderRow wentOnline(Instant at) {
        return toBuilder().online(true).onlineChangedAt(at).offlineReason(null).build();
    }

    ProviderRow wentOffline(String reason, Instant at) {
        return toBuilder().online(false).onlineChangedAt(at).offlineReason(reason).build();
    }

    ProviderRow modelsPublished(Instant at) {
        return toBuilder().modelsPublishedAt(at).build();
    }

    ProviderRow inferenceWentOnline(Instant at) {
        return toBuilder().inferenceOnline(true).inferenceChangedAt(at).build();
    }

    ProviderRow inferenceWentOffline(Instant at) {
        return toBuilder().inferenceOnline(false).inferenceChangedAt(at).build();
    }

    public boolean isApproved() {
        return ApprovalState.APPROVED.code().equals(approval);
    }

    /**
     * Makes rows by naming the values set; what is not named keeps its value (the copied row's,
     * or null, false and no categories). A new column is one component above, one field, one
     * setter and one argument here.
     */
    public static final class Builder {

        private String providerId;
        private String address;
        private String name;
        private String description;
        private String apiUrl;
        private String category;
        private List<String> additionalCategories = List.of();
        private String tier;
        private String hotkey;
        private Integer uid;
        private String docsUrl;
        private Instant registeredAt;
        private String approval;
        private Instant approvalChangedAt;
        private String suspensionReason;
        private BigDecimal score;
        private boolean online;
        private Instant onlineChangedAt;
        private String offlineReason;
        private Instant modelsPublishedAt;
        private boolean inferenceOnline;
        private Instant inferenceChangedAt;

        private Builder() {
        }

        private Builder(ProviderRow row) {
            providerId = row.providerId;
            address = row.address;
            name = row.name;
            description = row.description;
            apiUrl = row.apiUrl;
            category = row.category;
            additionalCategories = row.additionalCategories;
            tier = row.tier;
            hotkey = row.hotkey;
            uid = row.uid;
            docsUrl = row.docsUrl;
            registeredAt = row.registeredAt;
            approval = row.approval;
            approvalChangedAt = row.approvalChangedAt;
            suspensionReason = row.suspensionReason;
            score = row.score;
            online = row.online;
            onlineChangedAt = row.onlineChangedAt;
            offlineReason = row.offlineReason;
            modelsPublishedAt = row.modelsPublishedAt;
            inferenceOnline = row.inferenceOnline;
            inferenceChangedAt = row.inferenceChangedAt;
        }

        public Builder providerId(String providerId) {
            this.providerId = providerId;
            return this;
        }

        public Builder address(String address) {
            this.address = address;
            return this;
        }

        public Builder name(String name) {
            this.name = name;
            return this;
        }

        public Builder description(String description) {
            this.description = description;
            return this;
        }

        public Builder apiUrl(String apiUrl) {
            this.apiUrl = apiUrl;
            return this;
        }

        public Builder category(String category) {
            this.category = category;
            return this;
        }

        public Builder additionalCategories(List<String> additionalCategories) {
            this.additionalCategories = additionalCategories;
            return this;
        }

        public Builder tier(String tier) {
            this.tier = tier;
            return this;
        }

        public Builder hotkey(String hotkey) {
            this.hotkey = hotkey;
            return this;
        }

        public Builder uid(Integer uid) {
            this.uid = uid;
            return this;
        }

        public Builder docsUrl(String docsUrl) {
            this.docsUrl = docsUrl;
            return this;
        }

        public Builder registeredAt(Instant registeredAt) {
            this.registeredAt = registeredAt;
            return this;
        }

        public Builder approval(String approval) {
            this.approval = approval;
            return this;
        }

        public Builder approvalChangedAt(Instant approvalChangedAt) {
            this.approvalChangedAt = approvalChangedAt;
            return this;
        }

        public Builder suspensionReason(String suspensionReason) {
            this.suspensionReason = suspensionReason;
            return this;
        }

        public Builder score(BigDecimal score) {
            this.score = score;
            return this;
        }

        public Builder online(boolean online) {
            this.online = online;
            return this;
        }

        public Builder onlineChangedAt(Instant onlineChangedAt) {
            this.onlineChangedAt = onlineChangedAt;
            return this;
        }

        public Builder offlineReason(String offlineReason) {
            this.offlineReason = offlineReason;
            return this;
        }

        public Builder modelsPublishedAt(Instant modelsPublishedAt) {
            this.modelsPublishedAt = modelsPublishedAt;
            return this;
        }

        public Builder inferenceOnline(boolean inferenceOnline) {
            this.inferenceOnline = inferenceOnline;
            return this;
        }

        public Builder inferenceChangedAt(Instant inferenceChangedAt) {
            this.inferenceChangedAt = inferenceChangedAt;
            return this;
        }


        public ProviderRow build() {
            return new ProviderRow(providerId, address, name, description, apiUrl, category, additionalCategories,
                    tier, hotkey, uid, docsUrl, registeredAt, approval, approvalChangedAt, suspensionReason, score,
                    online, onlineChangedAt, offlineReason, modelsPublishedAt, inferenceOnline, inferenceChangedAt);
        }
    }
}
