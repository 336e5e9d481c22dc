package io.chanledger.api.ledger.admin;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code chan.admin.token}: the credential of the marketplace operator, from the environment
 * ({@code CHAN_ADMIN_TOKEN}) or a file. When none is configured, admin operations are off.
 */
@ConfigurationProperties("chan.admin")
public record AdminProperties(String token) {

    @Override
    public String toString() {
        return "AdminProperties[token=" + (token == null ? "none" : "***") + "]";
    }
}
