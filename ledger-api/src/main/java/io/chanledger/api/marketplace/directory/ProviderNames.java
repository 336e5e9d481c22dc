package io.chanledger.api.marketplace.directory;

import io.chanledger.projections.marketplace.ProviderView;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Providers' names as the operator compares them: trimmed, case ignored. A name is anyone's to
 * register (the signature proves a wallet, not a brand), so a second provider under an existing
 * name is accepted but waits for the operator, who sees which provider had the name first.
 */
final class ProviderNames {

    /** Who registered first; the id breaks a tie. */
    private static final Comparator<ProviderView> FIRST = Comparator
            .comparing((ProviderView view) -> view.row().registeredAt())
            .thenComparing(ProviderView::id);

    private ProviderNames() {
    }

    static String key(String name) {
        return name.strip().toLowerCase(Locale.ROOT);
    }

    /** The provider that registered {@code name} first, if any did. */
    static Optional<ProviderView> holder(List<ProviderView> providers, String name) {
        String key = key(name);
        return providers.stream().filter(view -> key(view.row().name()).equals(key)).min(FIRST);
    }

    /** For each provider whose name another provider registered before it: provider id → that provider's id. */
    static Map<String, String> duplicates(List<ProviderView> providers) {
        Map<String, ProviderView> first = new HashMap<>();
        for (ProviderView view : providers) {
            first.merge(key(view.row().name()), view, (a, b) -> FIRST.compare(a, b) <= 0 ? a : b);
        }
        Map<String, String> duplicates = new HashMap<>();
        for (ProviderView view : providers) {
            ProviderView holder = first.get(key(view.row().name()));
            if (holder != view) {
                duplicates.put(view.id(), holder.id());
            }
        }
        return duplicates;
    }
}
