package io.chanledger.api.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every command README.md and docs/*.md tell a user to run (the lines of their {@code ```sh} blocks)
 * names a script or binary that exists, in the repository or in the distribution, and is run by CI
 * or by a test, so a documented command that stops working fails the build. {@link #RUN_BY} says
 * where each runs, and is itself checked: each runner names the command's path and is run in turn.
 */
class DocumentedCommandsTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    /** The distribution's sources, laid out as the archive's folder (deploy/dist/distribution.xml). */
    private static final Path DISTRIBUTION = ROOT.resolve("deploy/dist");
    /** CI's entry point: what it names runs on every change. */
    private static final String CI = ".ci/run";
    private static final Set<String> INTERPRETERS = Set.of("node", "java", "sh", "bash");
    private static final Pattern SH_BLOCK = Pattern.compile("(?ms)^```sh\\n(.*?)^```");
    private static final Pattern ASSIGNMENT = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*=\\S*");
    private static final Pattern TEST_CLASS = Pattern.compile(".*/src/test/java/.*(Test|IT)\\.java");

    /**
     * The path a documented command runs (its script, binary or jar) → the file that runs it: CI's
     * entry point, a test class, or a script one of those runs. Scripts that run a documented
     * command on CI's behalf are listed too, so that the chain to CI is checked.
     */
    private static final Map<String, String> RUN_BY = Map.of(
            "deploy/run.sh", CI,
            "deploy/test.sh", CI,
            "deploy/devnet/walkthrough.mjs", CI,
            "deploy/devnet/local-network.sh", "deploy/run.sh",
            // the local network starts its marketplace and providers with the built jar and one file each
            "ledger-api/target/ledger-api-0.1.0-SNAPSHOT.jar", "deploy/devnet/local-network.sh",
            "bin/chan-provider", "ledger-api/src/test/java/io/chanledger/api/distribution/DistributionIT.java",
            "bin/chan-marketplace", "ledger-api/src/test/java/io/chanledger/api/distribution/DistributionIT.java");

    @Test
    void everyDocumentedCommandNamesAnExistingScriptRunByCiOrATest() {
        Map<String, String> commands = documentedCommands();
        assertThat(commands.values()).as("the commands found, so a parser finding none cannot pass")
                .contains("deploy/run.sh", "deploy/test.sh", "bin/chan-provider");

        List<String> problems = new ArrayList<>();
        commands.forEach((command, path) -> {
            if (!exists(path)) {
                problems.add(command + ": " + path + " is neither in the repository nor in the distribution");
            }
            if (!RUN_BY.containsKey(path)) {
                problems.add(command + ": nothing runs " + path + "; run it in CI (" + CI + ") or a test, and list it");
            }
        });
        assertThat(problems).isEmpty();
    }

    @Test
    void eachRunnerNamesTheCommandsPathAndIsRunInTurn() {
        List<String> problems = new ArrayList<>();
        RUN_BY.forEach((path, runner) -> {
            if (!names(runner, path)) {
                problems.add(runner + " does not name " + path);
            }
            if (!isRun(runner, 0)) {
                problems.add(runner + " is neither " + CI + ", nor a test, nor run by one of them");
            }
        });
        assertThat(problems).isEmpty();
    }

    /** Each command (continued lines joined, comments cut) → the path it runs. */
    private static Map<String, String> documentedCommands() {
        Map<String, String> commands = new LinkedHashMap<>();
        try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
            Stream.concat(Stream.of(ROOT.resolve("README.md")), docs.filter(file -> file.toString().endsWith(".md")).sorted())
                    .forEach(page -> {
                        Matcher block = SH_BLOCK.matcher(read(page));
                        while (block.find()) {
                            for (String line : block.group(1).replace("\\\n", " ").split("\n")) {
                                String command = line.replaceAll("(^|\\s)#.*$", "").strip();
                                // an export sets the environment of the commands after it and runs nothing
                                if (!command.isEmpty() && !command.startsWith("export ")) {
                                    commands.put(ROOT.relativize(page) + ": " + command, pathRun(command));
                                }
                            }
                        }
                    });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return commands;
    }

    /** The script, binary or jar a command runs: its program, or an interpreter's first operand. */
    private static String pathRun(String command) {
        List<String> words = new ArrayList<>(Arrays.asList(command.split("\\s+")));
        while (!words.isEmpty() && ASSIGNMENT.matcher(words.get(0)).matches()) {
            words.remove(0);
        }
        if (words.isEmpty()) {
            return command;
        }
        if (INTERPRETERS.contains(words.get(0))) {
            return words.stream().skip(1).filter(word -> !word.startsWith("-")).findFirst().orElse(words.get(0));
        }
        return words.get(0);
    }

    /** In the repository, in the distribution's folder, or the executable jar {@code package} builds. */
    private static boolean exists(String path) {
        return Files.exists(ROOT.resolve(path)) || Files.exists(DISTRIBUTION.resolve(path))
                || path.equals("ledger-api/target/ledger-api-" + projectVersion() + ".jar");
    }

    /** The runner's text names the path, from the repository's root or from the runner's own folder. */
    private static boolean names(String runner, String path) {
        Path file = ROOT.resolve(runner);
        if (!Files.isRegularFile(file)) {
            return false;
        }
        String text = read(file);
        return text.contains(path) || text.contains(file.getParent().relativize(ROOT.resolve(path)).toString());
    }

    private static boolean isRun(String runner, int depth) {
        if (runner.equals(CI) || TEST_CLASS.matcher(ROOT.resolve(runner).toString()).matches()) {
            return true;
        }
        String next = RUN_BY.get(runner);
        return depth < RUN_BY.size() && next != null && names(next, runner) && isRun(next, depth + 1);
    }

    private static String projectVersion() {
        Matcher version = Pattern.compile("<artifactId>chan-ledger</artifactId>\\s*<version>([^<]+)</version>")
                .matcher(read(ROOT.resolve("pom.xml")));
        assertThat(version.find()).as("the project's version in pom.xml").isTrue();
        return version.group(1);
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
