package io.chanledger.api.config;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code chan.role}: which part this process plays (docs/operations.md, "Roles"). Conditions read it
 * through {@link Role#of} before this record is bound; the record makes it a documented setting.
 */
@ConfigurationProperties("chan")
public record RoleProperties(@DefaultValue("all") Role role) {
}
