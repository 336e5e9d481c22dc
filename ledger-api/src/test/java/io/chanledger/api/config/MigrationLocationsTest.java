package io.chanledger.api.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;

/**
 * Every migration file of every module sits in one of the locations {@link RoleMigrations} names,
 * and no version is used twice across them: a file outside every location would never be applied,
 * and one role's version repeated by another's would stop role {@code all} at start-up, or, with
 * {@code versioned:missing} ignored, go unnoticed by the role that lacks it.
 */
class MigrationLocationsTest {

    private static final Path REPOSITORY = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern VERSIONED = Pattern.compile("V(\\d+(?:[._]\\d+)*)__.+\\.sql");

    @Test
    void everyMigrationFileSitsInALocationOfRoleAll() throws IOException {
        Map<String, List<String>> byLocation = migrationFiles().stream()
                .collect(Collectors.groupingBy(MigrationLocationsTest::locationOf, TreeMap::new, Collectors.toList()));
        assertThat(byLocation.keySet()).as("locations holding migrations, by file: %s", byLocation)
                .containsExactlyInAnyOrderElementsOf(RoleMigrations.ALL_LOCATIONS);
    }

    @Test
    void noVersionIsUsedTwiceAcrossTheLocations() throws IOException {
        Map<String, List<String>> byVersion = new TreeMap<>();
        for (String file : migrationFiles()) {
            String name = file.substring(file.lastIndexOf('/') + 1);
            Matcher versioned = VERSIONED.matcher(name);
            assertThat(versioned.matches()).as("%s is named V<version>__<description>.sql", file).isTrue();
            // as Flyway compares them: 1.01 and 1_1 are one version
            String version = Arrays.stream(versioned.group(1).split("[._]"))
                    .map(part -> new BigInteger(part).toString()).collect(Collectors.joining("."));
            byVersion.computeIfAbsent(version, v -> new ArrayList<>()).add(file);
        }
        assertThat(byVersion).allSatisfy((version, files) ->
                assertThat(files).as("migrations of version %s", version).hasSize(1));
    }

    @Test
    void eachRoleAppliesTheSharedLocationsAndOnlyItsOwn() {
        List<String> shared = List.of(RoleMigrations.CORE, RoleMigrations.CHAIN, RoleMigrations.CHANNELS);
        assertThat(RoleMigrations.locations(Role.ALL)).containsExactlyInAnyOrderElementsOf(RoleMigrations.ALL_LOCATIONS);
        assertThat(RoleMigrations.locations(Role.PROVIDER)).containsAll(shared)
                .contains(RoleMigrations.GATEWAY, RoleMigrations.EARNINGS)
                .doesNotContain(RoleMigrations.MARKETPLACE).hasSize(shared.size() + 2);
        assertThat(RoleMigrations.locations(Role.MARKETPLACE)).containsAll(shared).contains(RoleMigrations.MARKETPLACE)
                .doesNotContain(RoleMigrations.GATEWAY, RoleMigrations.EARNINGS).hasSize(shared.size() + 1);
        assertThat(RoleMigrations.flywaySettings(Role.ALL)).doesNotContainKey("spring.flyway.ignore-migration-patterns");
    }

    /** Each location is on the service's class path (its module is packaged), with its migrations. */
    @Test
    void everyLocationIsOnTheClassPath() throws IOException {
        PathMatchingResourcePatternResolver resolver = new PathMatchingResourcePatternResolver();
        for (String location : RoleMigrations.ALL_LOCATIONS) {
            Resource[] found = resolver.getResources(location.replace("classpath:", "classpath*:") + "/*.sql");
            assertThat(found).as("migrations at %s on the class path", location).isNotEmpty();
        }
    }

    /** Every SQL file of every module's main resources, as its class-path location: classpath:db/…/V1__x.sql. */
    private static List<String> migrationFiles() throws IOException {
        try (Stream<Path> modules = Files.list(REPOSITORY)) {
            List<Path> resourceFolders = modules.map(module -> module.resolve("src/main/resources"))
                    .filter(Files::isDirectory).toList();
            assertThat(resourceFolders).as("the modules' resource folders under %s", REPOSITORY).isNotEmpty();
            List<String> files = new ArrayList<>();
            for (Path resources : resourceFolders) {
                try (Stream<Path> walk = Files.walk(resources)) {
                    walk.filter(file -> file.getFileName().toString().endsWith(".sql"))
                            .map(file -> "classpath:" + resources.relativize(file).toString().replace('\\', '/'))
                            .forEach(files::add);
                }
            }
            assertThat(files).as("migration files").isNotEmpty();
            return files;
        }
    }

    /** The location a file sits in (Flyway scans a location's subfolders too), or the folder it sits in. */
    private static String locationOf(String file) {
        return RoleMigrations.ALL_LOCATIONS.stream().filter(location -> file.startsWith(location + "/")).findFirst()
                .orElse(file.substring(0, file.lastIndexOf('/')) + " (no location)");
    }
}
