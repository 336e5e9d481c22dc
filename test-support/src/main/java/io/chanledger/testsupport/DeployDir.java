package io.chanledger.testsupport;

import java.nio.file.Files;
import java.nio.file.Path;

/** Finds the repository's {@code deploy/} directory from wherever a module's tests run. */
public final class DeployDir {

    private DeployDir() {
    }

    /** The {@code deploy/} directory: the nearest one, walking up from the working directory, that holds a package.json. */
    public static Path locate() {
        Path start = Path.of("").toAbsolutePath();
        for (Path dir = start; dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve("deploy");
            if (Files.isRegularFile(candidate.resolve("package.json"))) {
                return candidate;
            }
        }
        throw new IllegalStateException("no deploy/package.json in " + start + " or any parent directory");
    }

    public static Path artifact(String contractName) {
        return locate().resolve("contracts").resolve("artifacts").resolve(contractName + ".json");
    }
}
