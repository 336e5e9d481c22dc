package io.chanledger.api.marketplace.directory;

import io.chanledger.domain.provider.ProviderCategory;
import io.chanledger.domain.provider.ProviderProfile;
import io.chanledger.domain.provider.ProviderTier;
import java.net.URI;
import java.time.Instant;
import java.util.List;

/**
 * A validated {@code POST /api/directory/providers} body. {@code signedApiUrl},
 * {@code signedAddress} and {@code signedIssuedAt} are the values exactly as sent, which is what
 * the wallet signed; {@code apiUrl} and {@code address} are their normalized forms.
 */
record RegistrationRequest(
        String name,
        String description,
        URI apiUrl,
        String signedApiUrl,
        String address,
        String signedAddress,
        ProviderCategory category,
        List<ProviderCategory> additionalCategories,
        ProviderTier tier,
        String hotkey,
        Integer uid,
        String contact,
        String contactEmail,
        String docsUrl,
        ProviderProfile profile,
        byte[] signature,
        String nonce,
        Instant issuedAt,
        String signedIssuedAt) {
}
