package io.chanledger.api.eventstore;

import java.sql.SQLException;
import org.axonframework.common.jdbc.PersistenceExceptionResolver;
import org.axonframework.modelling.command.AggregateStreamCreationException;
import org.axonframework.modelling.command.ConcurrencyException;

/**
 * What counts as a write conflict between instances: another instance appended an event at the
 * same sequence number of the same aggregate first. PostgreSQL reports the violated unique key
 * as SQLSTATE 23505; the vendor error codes Axon's default resolver compares are 0 on
 * PostgreSQL, which made every conflict an unexplained storage failure.
 */
public final class StorageConflicts implements PersistenceExceptionResolver {

    private static final String UNIQUE_VIOLATION = "23505";

    @Override
    public boolean isDuplicateKeyViolation(Exception exception) {
        for (Throwable cause = exception; cause != null; cause = cause.getCause()) {
            if (cause instanceof SQLException sql && UNIQUE_VIOLATION.equals(sql.getSQLState())) {
                return true;
            }
        }
        return false;
    }

    /** True when {@code failure} is a lost race for an aggregate's next sequence number: retry on fresh state. */
    public static boolean isConflict(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof ConcurrencyException || cause instanceof AggregateStreamCreationException) {
                return true;
            }
        }
        return false;
    }
}
