package io.chanledger.api.config;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.boot.context.TypeExcludeFilter;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.type.classreading.MetadataReader;
import org.springframework.core.type.classreading.MetadataReaderFactory;
import org.springframework.util.ClassUtils;

/**
 * Leaves the other role's packages out of the component scan (and out of the settings-record scan,
 * which consults the same filters), so a provider has no marketplace bean, route or settings
 * record, and the other way round: their paths answer the service's 404 in their own error shape.
 * A package says its role once, in its {@code package-info.java} ({@link RolePackage}), so a class
 * added to it later cannot forget it. Registered for every start of the application through
 * {@code META-INF/spring.factories}.
 *
 * <p>It also sets which migrations the role applies ({@link RoleMigrations}). A provider serves no
 * web pages, so the built pages Spring Boot would otherwise serve as static resources (and
 * {@code index.html} at {@code /}) are looked for in a folder that does not exist there: an unknown
 * path is still the resource handler's 404, rendered in its route's error shape.
 */
public final class RoleComponentFilter extends TypeExcludeFilter
        implements ApplicationContextInitializer<ConfigurableApplicationContext> {

    private static final String ROOT = "io.chanledger";

    private final Map<String, Optional<Role>> packageRoles = new ConcurrentHashMap<>();
    private Role role = Role.ALL;

    @Override
    public void initialize(ConfigurableApplicationContext context) {
        ConfigurableEnvironment environment = context.getEnvironment();
        RoleComponentFilter filter = new RoleComponentFilter();
        filter.role = Role.of(environment);
        context.getBeanFactory().registerSingleton(RoleComponentFilter.class.getName(), filter);
        Map<String, Object> roleDefaults = new HashMap<>(RoleMigrations.flywaySettings(filter.role));
        if (!filter.role.runs(Role.MARKETPLACE)) {
            roleDefaults.put("spring.web.resources.static-locations", "classpath:/no-web-pages/");
        }
        // last: below the files, the environment and the command line, which may still set any of these
        environment.getPropertySources().addLast(
                new MapPropertySource("chan-role-" + filter.role.settingValue(), roleDefaults));
    }

    @Override
    public boolean match(MetadataReader reader, MetadataReaderFactory factory) {
        String packageName = ClassUtils.getPackageName(reader.getClassMetadata().getClassName());
        return roleOfPackage(packageName).map(part -> !role.runs(part)).orElse(false);
    }

    /** The role {@code packageName} or its nearest declaring parent belongs to; empty for shared code. */
    public static Optional<Role> roleOf(String packageName) {
        return declaredRole(packageName, RoleComponentFilter.class.getClassLoader());
    }

    private Optional<Role> roleOfPackage(String packageName) {
        return packageRoles.computeIfAbsent(packageName, RoleComponentFilter::roleOf);
    }

    private static Optional<Role> declaredRole(String packageName, ClassLoader loader) {
        for (String name = packageName; name.startsWith(ROOT); name = parent(name)) {
            try {
                RolePackage declared = Class.forName(name + ".package-info", false, loader)
                        .getAnnotation(RolePackage.class);
                if (declared != null) {
                    return Optional.of(declared.value());
                }
            } catch (ClassNotFoundException noPackageInfo) {
                // not declared here: look at the parent
            }
        }
        return Optional.empty();
    }

    private static String parent(String packageName) {
        int dot = packageName.lastIndexOf('.');
        return dot < 0 ? "" : packageName.substring(0, dot);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof RoleComponentFilter filter && filter.role == role;
    }

    @Override
    public int hashCode() {
        return role.hashCode();
    }
}
