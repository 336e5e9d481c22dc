package io.chanledger.api.config;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;
import org.springframework.core.env.Environment;

/**
 * The part a process plays ({@code chan.role}). The deployed system has one {@link #MARKETPLACE}
 * (the operator's site) and one {@link #PROVIDER} per provider, each on its own server; {@link #ALL}
 * plays both in one process, as the local network and the test suite do.
 */
public enum Role {

    /** Both parts in one process: the service as it was before roles. */
    ALL,
    /** Discovery, directory, registration, validators, feedback, skills, gas station, web pages. */
    MARKETPLACE,
    /** The gateway ({@code /v1}), the ledger of its own channels, the watchtower and its claims. */
    PROVIDER;

    public static final String SETTING = "chan.role";

    /** Whether a process of this role runs the code of {@code part} (a package's {@link RolePackage}). */
    public boolean runs(Role part) {
        return this == ALL || part == ALL || this == part;
    }

    public String settingValue() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The role {@code environment} sets. Read before the settings records are bound (conditions and
     * the component scan need it), so a wrong value stops the start here with the values it may take.
     */
    public static Role of(Environment environment) {
        String value = environment.getProperty(SETTING, ALL.settingValue()).trim();
        return Arrays.stream(values()).filter(role -> role.settingValue().equalsIgnoreCase(value)).findFirst()
                .orElseThrow(() -> new IllegalStateException(SETTING + " must be one of "
                        + Arrays.stream(values()).map(Role::settingValue).collect(Collectors.joining(", "))
                        + ", not '" + value + "'"));
    }
}
