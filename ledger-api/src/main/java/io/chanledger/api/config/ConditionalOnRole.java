package io.chanledger.api.config;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.context.annotation.Conditional;

/**
 * Only in a process that plays {@code value} (or every role, {@code chan.role=all}). For the odd
 * class of a shared package that serves one role; a whole package of one role says so in its
 * {@code package-info.java} instead ({@link RolePackage}).
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
@Conditional(OnRoleCondition.class)
public @interface ConditionalOnRole {

    Role value();
}
