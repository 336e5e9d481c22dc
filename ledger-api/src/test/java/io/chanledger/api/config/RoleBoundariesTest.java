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
    void eachPartyDeclaresItsRoleOnceForEveryPackageUnderIt() {
        Map<String, Role> declaring = new TreeMap<>();
        Map<String, Optional<Role>> packages = new TreeMap<>();
        for (JavaClass type : SERVICE) {
            String name = type.getPackageName();
            packages.put(name, RoleComponentFilter.roleOf(name));
        }
        for (String name : packages.keySet()) {
            try {
                RolePackage declared = Class.forName(name + ".package-info").getAnnotation(RolePackage.class);
                if (declared != null) {
                    declaring.put(name, declared.value());
                }
            } catch (ClassNotFoundException noPackageInfo) {
                // declares nothing
            }
        }
        assertThat(declaring).isEqualTo(Map.of(
                "io.chanledger.api.provider", Role.PROVIDER,
                "io.chanledger.api.marketplace", Role.MARKETPLACE));
        packages.forEach((name, role) -> assertThat(role).as(name).isEqualTo(
                within(name, "io.chanledger.api.provider") ? Optional.of(Role.PROVIDER)
                        : within(name, "io.chanledger.api.marketplace") ? Optional.of(Role.MARKETPLACE)
                        : Optional.empty()));
    }

    private static boolean within(String packageName, String parent) {
        return packageName.equals(parent) || packageName.startsWith(parent + ".");
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
