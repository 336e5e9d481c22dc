package io.chanledger.api.provider.gateway;

import io.chanledger.api.config.ChainProperties;
import io.chanledger.api.config.ProtocolProperties;
import io.chanledger.api.provider.ProviderIdentity;
import io.chanledger.domain.eip712.Hex;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.HttpHeaders;
import org.springframework.web.servlet.support.ServletUriComponentsBuilder;

/** How to pay this gateway: the {@code X-Payment-*} headers of payment discovery (docs/protocol.md §5). */
final class PaymentTerms {

    private final ProviderIdentity identity;
    private final ChainProperties chain;
    private final GatewayProperties properties;

    PaymentTerms(ProviderIdentity identity, ChainProperties chain, GatewayProperties properties) {
        this.identity = identity;
        this.chain = chain;
        this.properties = properties;
    }

    HttpHeaders headers(HttpServletRequest request) {
        HttpHeaders headers = new HttpHeaders();
        headers.set("X-Payment-Protocol", ProtocolProperties.NAME);
        headers.set("X-Payment-Provider", identity.checksumAddress());
        headers.set("X-Payment-Contract", contract());
        headers.set("X-Payment-Chain", Long.toString(chain.chainId()));
        headers.set("X-Payment-Signing", signingUrl(request));
        headers.set("X-Payment-Docs", baseUrl(request) + "/v1/docs");
        return headers;
    }

    String contract() {
        return Hex.toChecksumAddress(chain.channelContract());
    }

    /** The USDC token's address, checksummed; null when not configured. */
    String usdc() {
        return GatewayProperties.blank(chain.usdc()) ? null : Hex.toChecksumAddress(chain.usdc());
    }

    long chainId() {
        return chain.chainId();
    }

    String signingUrl(HttpServletRequest request) {
        return GatewayProperties.blank(properties.signingUrl()) ? baseUrl(request) + "/api/chan/signing"
                : properties.signingUrl();
    }

    /** The configured public URL, else the scheme, host and port the request came to. */
    String baseUrl(HttpServletRequest request) {
        String configured = properties.publicUrl();
        if (!GatewayProperties.blank(configured)) {
            return configured.endsWith("/") ? configured.substring(0, configured.length() - 1) : configured;
        }
        return ServletUriComponentsBuilder.fromContextPath(request).replaceQuery(null).build().toUriString();
    }
}
