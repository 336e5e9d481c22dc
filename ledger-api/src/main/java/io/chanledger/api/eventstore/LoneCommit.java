package io.chanledger.api.eventstore;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.axonframework.common.transaction.NoTransactionManager;
import org.axonframework.common.transaction.TransactionManager;

/**
 * A command decided alone and committed by the one statement that appends its events, with no
 * transaction around it: what an agent sending one request after another gets, as its paid
 * requests' holds and settlements come to the ledger one at a time.
 *
 * <p>A transaction costs round trips to the database of its own: its COMMIT, and a statement for
 * each table it writes. A lone paid request's settlement wrote its event, then its answer, then
 * committed; its hold wrote its event, then committed. Here the statement that appends the events
 * also writes the rows kept beside them ({@link #writeBesideEvents}: the paid answer), as
 * data-modifying {@code WITH} clauses of the event insert, and runs in autocommit: PostgreSQL
 * runs it as a transaction of its own, so its rows are written all together or not at all, and
 * the statement returns once they are committed (durable, unless the connection is one that does
 * not wait for the disk, as a hold's is: {@link CommitFlush}). One round trip instead of three for
 * a settlement, one instead of two for a hold (BENCHMARKS.md, "The paid request": lone commit).
 *
 * <p>While a lone commit is open on a thread, the transaction manager Axon is given starts no
 * transaction on that thread ({@link #startingNoneWhileOpen}): neither the command bus around the
 * command, nor the event store around the append. The command still reads what it needs
 * (a channel not cached is read from the store) with connections of its own, and is judged by the
 * aggregate exactly as in a batch; what it decides is written only by the append, at the unit of
 * work's commit. A write that loses a race with another instance fails that one statement on the
 * store's unique sequence numbers, and leaves nothing behind, as a batch's rolled-back transaction
 * does.
 */
public final class LoneCommit {

    private static final ThreadLocal<LoneCommit> OPEN = new ThreadLocal<>();

    /** An insert written by the statement that appends the events; its values bound in order. */
    record RowBesideEvents(String insert, Object[] values) {
    }

    private final List<RowBesideEvents> rowsBesideEvents = new ArrayList<>();

    private LoneCommit() {
    }

    /**
     * Runs {@code decideAndCommit} (a unit of work deciding one command and committing it) with a
     * lone commit open on this thread, and answers its result.
     *
     * @throws IllegalStateException when rows were kept beside events and no event was appended:
     *                               nothing was written, and a caller keeping a row for an event
     *                               must not be told it is kept
     */
    public static <T> T run(Supplier<T> decideAndCommit) {
        if (OPEN.get() != null) {
            throw new IllegalStateException("a lone commit is already open on this thread");
        }
        LoneCommit lone = new LoneCommit();
        OPEN.set(lone);
        T result;
        try {
            result = decideAndCommit.get();
        } finally {
            OPEN.remove();
        }
        if (!lone.rowsBesideEvents.isEmpty()) {
            throw new IllegalStateException(lone.rowsBesideEvents.size()
                    + " row(s) kept beside events, but the command recorded no event; nothing was written");
        }
        return result;
    }

    /**
     * Has {@code insert} (one SQL {@code INSERT}, its parameters {@code values}) written by the
     * statement that appends the events of the lone commit open on this thread, so that it is
     * committed exactly when they are. Answers false, and writes nothing, when none is open.
     */
    public static boolean writeBesideEvents(String insert, Object... values) {
        LoneCommit lone = OPEN.get();
        if (lone == null) {
            return false;
        }
        lone.rowsBesideEvents.add(new RowBesideEvents(insert, values.clone()));
        return true;
    }

    /** The lone commit open on this thread, or null. */
    static LoneCommit current() {
        return OPEN.get();
    }

    /** The rows to be written beside the events being appended now; each is handed out once. */
    List<RowBesideEvents> takeRowsBesideEvents() {
        List<RowBesideEvents> rows = List.copyOf(rowsBesideEvents);
        rowsBesideEvents.clear();
        return rows;
    }

    /** {@code transactions}, starting none on a thread while a lone commit is open on it. */
    static TransactionManager startingNoneWhileOpen(TransactionManager transactions) {
        return () -> OPEN.get() != null
                ? NoTransactionManager.INSTANCE.startTransaction()
                : transactions.startTransaction();
    }
}
