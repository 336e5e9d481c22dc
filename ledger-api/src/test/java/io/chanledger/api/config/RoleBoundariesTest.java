package io.chanledger.api.config;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The roles' boundaries in the code (docs/operations.md, "Roles"): a marketplace package imports no
 * provider code and a provider package no marketplace code; shared code (every package without a
 * {@link RolePackage}, the other modules too) imports neither, since every role runs it. Within a
 * role, packages may use each other (the gateway and the watchtower do).
 */
class RoleBoundariesTest {

    private static final JavaClasses SERVICE = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.chanledger");

    @Test
    void eachRoleOwnsTheFeaturePackagesTheDocumentationNames() {
        Map<String, Role> declared = new TreeMap<>();
        for (JavaClass type : SERVICE) {
            RoleComponentFilter.roleOf(type.getPackageName()).ifPresent(role -> declared.put(type.getPackageName(), role));
        }
        assertThat(declared).isEqualTo(Map.of(
                "io.chanledger.api.marketplace", Role.MARKETPLACE,
                "io.chanledger.api.skills", Role.MARKETPLACE,
                "io.chanledger.api.gasstation", Role.MARKETPLACE,
                "io.chanledger.api.pages", Role.MARKETPLACE,
                "io.chanledger.api.gateway", Role.PROVIDER,
                "io.chanledger.api.watchtower", Role.PROVIDER,
                "io.chanledger.api.dashboard", Role.PROVIDER));
    }

    @Test
    void noCodeImportsTheCodeOfARoleItDoesNotBelongTo() {
        classes().should(importOnlyTheirOwnRolesCodeOrSharedCode()).check(SERVICE);
    }

    private static ArchCondition<JavaClass> importOnlyTheirOwnRolesCodeOrSharedCode() {
        return new ArchCondition<>("use only shared code and the code of their own role") {
            @Override
            public void check(JavaClass type, ConditionEvents events) {
                Optional<Role> own = RoleComponentFilter.roleOf(type.getPackageName());
                Set<String> crossings = new TreeSet<>();
                for (Dependency dependency : type.getDirectDependenciesFromSelf()) {
                    JavaClass target = dependency.getTargetClass();
                    Optional<Role> theirs = RoleComponentFilter.roleOf(target.getPackageName());
                    if (theirs.isPresent() && !theirs.equals(own)) {
                        crossings.add(target.getName());
                    }
                }
                if (!crossings.isEmpty()) {
                    events.add(SimpleConditionEvent.violated(type, type.getName() + " ("
                            + own.map(Role::settingValue).orElse("shared") + ") uses " + crossings));
                }
            }
        };
    }
}
