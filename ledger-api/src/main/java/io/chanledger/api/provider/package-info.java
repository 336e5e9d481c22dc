/**
 * A provider's own server: the gateway its agents pay ({@code /v1}), the ways to pay it,
 * the watchtower that claims its channels, its dashboard. Every package under this one is provider
 * code, scanned only in a process that plays the provider (docs/operations.md, "Roles").
 */
@RolePackage(Role.PROVIDER)
package io.chanledger.api.provider;

import io.chanledger.api.config.Role;
import io.chanledger.api.config.RolePackage;
