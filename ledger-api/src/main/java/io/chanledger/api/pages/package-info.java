/** Marketplace code: the operator's site (docs/operations.md, "Roles"). */
@RolePackage(Role.MARKETPLACE)
package io.chanledger.api.pages;

import io.chanledger.api.config.Role;
import io.chanledger.api.config.RolePackage;
