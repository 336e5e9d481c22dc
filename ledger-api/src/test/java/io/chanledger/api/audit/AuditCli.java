package io.chanledger.api.audit;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

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
}
