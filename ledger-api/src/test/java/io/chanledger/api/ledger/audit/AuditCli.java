package io.chanledger.api.ledger.audit;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Runs {@code audit …} as the jar's command line does, for tests outside this package. */
public final class AuditCli {

    /** The exit status and what the command wrote to standard output. */
    public record Result(int status, String out) {
    }

    private AuditCli() {
    }

    public static Result run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int status = AuditCommand.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(new ByteArrayOutputStream()));
        return new Result(status, out.toString(StandardCharsets.UTF_8));
    }

    /** {@code audit export --channel} of the PostgreSQL store at {@code databaseUrl}, as lines, written under {@code dir}. */
    public static List<String> exportChannel(Path dir, String databaseUrl, String channelId) throws IOException {
        Path file = dir.resolve("channel-" + System.nanoTime() + ".ndjson");
        Result exported = run("export", "--channel", channelId, "--out", file.toString(),
                "--spring.profiles.active=postgres", "--spring.datasource.url=" + databaseUrl);
        if (exported.status() != 0) {
            throw new AssertionError("audit export failed: " + exported.out());
        }
        return Files.readAllLines(file);
    }

    /** {@code audit verify} of {@code lines} (written under {@code dir}) against the devnet's contract on chain 137. */
    public static Result verify(Path dir, List<String> lines, String contract) throws IOException {
        Path file = Files.write(dir.resolve("export-" + System.nanoTime() + ".ndjson"), lines);
        return run("verify", file.toString(), "--contract", contract, "--chain-id", "137");
    }
}
