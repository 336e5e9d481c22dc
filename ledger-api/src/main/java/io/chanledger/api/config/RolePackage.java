package io.chanledger.api.config;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares, in a feature package's {@code package-info.java}, the role whose code the package is:
 * its components are scanned only in a process of that role ({@link RoleComponentFilter}), and
 * {@code RoleBoundariesTest} refuses imports between the two roles' packages. A package without it
 * (nor a parent with it) is shared: every role runs it, and it imports neither role's code.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PACKAGE)
public @interface RolePackage {

    Role value();
}
