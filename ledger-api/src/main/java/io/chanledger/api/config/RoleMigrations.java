package io.chanledger.api.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Which Flyway migrations a role applies ({@code spring.flyway.locations}): each feature's tables
 * sit beside the code that owns them, and a role creates only the tables its code uses, so a
 * provider's database holds no marketplace table and the other way round. Versions stay unique
 * across every location ({@code MigrationLocationsTest}), so {@link Role#ALL} applies them in the
 * one order they always had. Set as defaults of lowest precedence: a {@code spring.flyway.*} given
 * in a file, the environment or on the command line still wins.
 */
public final class RoleMigrations {

    /** What every role needs: Axon's event, snapshot and token stores, and wallet-signed requests. */
    public static final String CORE = "classpath:db/migration/core";
    /** The chain listener's checkpoint and channel expiries (module chain). */
    public static final String CHAIN = "classpath:db/chain";
    /** The channel read models, which both roles serve (module projections). */
    public static final String CHANNELS = "classpath:db/projections/channels";
    /** The directory, skills, feedback, telemetry and the gas station's grants. */
    public static final String MARKETPLACE = "classpath:db/migration/marketplace";
    /** The gateway's answers and instances, the watchtower's claims, close watch and excess returns. */
    public static final String GATEWAY = "classpath:db/migration/gateway";
    /** A provider's earnings read model, behind its dashboard (module projections). */
    public static final String EARNINGS = "classpath:db/projections/earnings";

    /** Every location, in the order {@link Role#ALL} lists them. */
    public static final List<String> ALL_LOCATIONS = List.of(CORE, CHAIN, CHANNELS, MARKETPLACE, GATEWAY, EARNINGS);

    private RoleMigrations() {
    }

    /** The locations of the migrations {@code role} applies. */
    public static List<String> locations(Role role) {
        List<String> locations = new ArrayList<>(List.of(CORE, CHAIN, CHANNELS));
        if (role.runs(Role.MARKETPLACE)) {
            locations.add(MARKETPLACE);
        }
        if (role.runs(Role.PROVIDER)) {
            locations.add(GATEWAY);
            locations.add(EARNINGS);
        }
        return List.copyOf(locations);
    }

    /**
     * Flyway's settings for {@code role}. A database first migrated by role {@code all} (the local
     * network, or a marketplace that once ran the gateway too) holds migrations of the other role,
     * which this role does not have: Flyway's validation would stop the start on them as "applied
     * migration not resolved locally". A role that leaves locations out therefore ignores applied
     * versioned migrations it lacks ({@code versioned:missing}); Flyway cannot narrow that to the
     * other role's versions, so {@code MigrationLocationsTest} makes sure every migration file sits
     * in a location of {@code all}, which still validates everything. {@code *:future} is Flyway's
     * own default, kept.
     */
    public static Map<String, Object> flywaySettings(Role role) {
        String locations = String.join(",", locations(role));
        if (role == Role.ALL) {
            return Map.of("spring.flyway.locations", locations);
        }
        return Map.of("spring.flyway.locations", locations,
                "spring.flyway.ignore-migration-patterns", "*:future,versioned:missing");
    }
}
