/**
 * The operator's site: the provider directory, registration and health checks, reports and
 * scores, skills, the gas station, the web pages. Every package under this one is marketplace
 * code, scanned only in a process that plays the marketplace (docs/operations.md, "Roles").
 */
@RolePackage(Role.MARKETPLACE)
package io.chanledger.api.marketplace;

import io.chanledger.api.config.Role;
import io.chanledger.api.config.RolePackage;
