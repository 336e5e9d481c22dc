package io.chanledger.api.ledger.audit;

import java.io.Console;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.util.Locale;

/**
 * Progress of a long audit on standard error: a bar redrawn in place on a terminal; otherwise,
 * once a run has taken more than a few seconds, a plain line every tenth of the way. Short runs
 * and piped output stay quiet.
 */
final class ProgressMeter {

    private static final long REDRAW_NANOS = 250_000_000L;
    private static final long QUIET_NANOS = 5_000_000_000L;
    private static final int WIDTH = 30;

    private final PrintStream err;
    private final String label;
    private final long total;
    private final boolean terminal;
    private final long started = System.nanoTime();
    private long lastDraw;
    private int lastTenth;

    ProgressMeter(PrintStream err, String label, long total, boolean terminal) {
        this.err = err;
        this.label = label;
        this.total = Math.max(1, total);
        this.terminal = terminal;
    }

    static ProgressMeter onStandardError(String label, long total) {
        return new ProgressMeter(System.err, label, total, isTerminal());
    }

    void update(long done, long items) {
        long now = System.nanoTime();
        int percent = (int) Math.min(100, done * 100 / total);
        if (terminal) {
            if (now - lastDraw >= REDRAW_NANOS) {
                lastDraw = now;
                int filled = percent * WIDTH / 100;
                err.printf(Locale.ROOT, "\r%s [%s%s] %3d%%  %,d events", label, "#".repeat(filled),
                        ".".repeat(WIDTH - filled), percent, items);
                err.flush();
            }
        } else if (now - started > QUIET_NANOS && percent / 10 > lastTenth) {
            lastTenth = percent / 10;
            err.printf(Locale.ROOT, "%s: %d%%, %,d events%n", label, percent, items);
        }
    }

    void finish(long items) {
        if (terminal) {
            err.printf(Locale.ROOT, "\r%s [%s] 100%%  %,d events%n", label, "#".repeat(WIDTH), items);
        }
    }

    /** A console that is a terminal; {@code Console.isTerminal} exists from Java 22 on. */
    private static boolean isTerminal() {
        Console console = System.console();
        if (console == null) {
            return false;
        }
        try {
            Method isTerminal = Console.class.getMethod("isTerminal");
            return (Boolean) isTerminal.invoke(console);
        } catch (ReflectiveOperationException olderJava) {
            return true;
        }
    }
}
