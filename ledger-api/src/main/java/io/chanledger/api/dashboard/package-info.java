/** Provider code: a provider's own server (docs/operations.md, "Roles"). */
@RolePackage(Role.PROVIDER)
package io.chanledger.api.dashboard;

import io.chanledger.api.config.Role;
import io.chanledger.api.config.RolePackage;
