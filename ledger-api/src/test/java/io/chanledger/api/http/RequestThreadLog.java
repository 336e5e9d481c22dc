package io.chanledger.api.http;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import java.util.function.Supplier;
import org.slf4j.LoggerFactory;

/**
 * What the server logs while it handles requests, at the level a deployment logs (INFO; loggers
 * the configuration sets stay as set). Only the threads that serve requests count, so that the
 * shared application's background work (watchtower, health checks) does not.
 */
final class RequestThreadLog {

    /** Served result and the log lines written meanwhile. */
    record Logged<T>(T result, List<ILoggingEvent> lines) {
    }

    private RequestThreadLog() {
    }

    static <T> Logged<T> during(Supplier<T> requests) {
        Logger root = (Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME);
        Level level = root.getLevel();
        ListAppender<ILoggingEvent> appender = new ListAppender<>();
        appender.start();
        root.addAppender(appender);
        root.setLevel(Level.INFO);
        T result;
        try {
            result = requests.get();
        } finally {
            root.setLevel(level);
            root.detachAppender(appender);
        }
        List<ILoggingEvent> lines;
        // AppenderBase appends under the appender's lock: a background thread may still be inside
        synchronized (appender) {
            lines = appender.list.stream().filter(RequestThreadLog::servesRequests).toList();
        }
        return new Logged<>(result, lines);
    }

    /** Tomcat's request threads: virtual ({@code tomcat-handler-N}) or pooled ({@code http-nio-...-exec-N}). */
    private static boolean servesRequests(ILoggingEvent event) {
        String thread = event.getThreadName();
        return thread.startsWith("tomcat-handler-") || thread.startsWith("http-nio-");
    }
}
