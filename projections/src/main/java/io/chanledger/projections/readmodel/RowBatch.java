package io.chanledger.projections.readmodel;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * The rows one batch of events touches: read once (all keys of the batch in one query when they
 * are known up front), changed in memory event by event, and written back at the end
 * ({@link #write}) with a few multi-row INSERTs and UPDATEs. An event whose sequence number is
 * not above the row's last applied one was applied before and is skipped, which makes
 * redelivery harmless.
 */
public final class RowBatch<R extends SequencedRow> implements RowChanges<R> {

    private final RowFinder<R> finder;
    /** Rows as stored before this batch; a key mapped to null is known to be absent. */
    private final Map<String, R> stored = new HashMap<>();
    private final Map<String, R> current = new LinkedHashMap<>();

    public RowBatch(RowFinder<R> finder, Collection<String> prefetch) {
        this.finder = finder;
        if (!prefetch.isEmpty()) {
            load(prefetch);
        }
    }

    /** The row as this batch sees it now, or null when the aggregate has no row. */
    public R get(String key) {
        R row = current.get(key);
        if (row != null) {
            return row;
        }
        if (!stored.containsKey(key)) {
            load(List.of(key));
        }
        return stored.get(key);
    }

    @Override
    public boolean create(String key, Supplier<R> row) {
        if (get(key) != null) {
            return false;
        }
        current.put(key, row.get());
        return true;
    }

    @Override
    public boolean update(String key, long sequence, UnaryOperator<R> transition) {
        R row = get(key);
        if (row == null || sequence <= row.lastSequence()) {
            return false;
        }
        current.put(key, transition.apply(row));
        return true;
    }

    /** Every row this batch changed, with its state before the batch (null for a new row). */
    public List<Change<R>> changes() {
        List<Change<R>> changes = new ArrayList<>(current.size());
        current.forEach((key, after) -> changes.add(new Change<>(stored.get(key), after)));
        return changes;
    }

    /**
     * Writes changed rows to {@code store}: a row new in its change is inserted, the others
     * updated. A key appears at most once in {@code changes}.
     */
    public static <R extends SequencedRow> void write(RowStore<R> store, List<Change<R>> changes) {
        List<R> inserts = new ArrayList<>();
        List<R> updates = new ArrayList<>();
        for (Change<R> change : changes) {
            (change.before() == null ? inserts : updates).add(change.after());
        }
        if (!inserts.isEmpty()) {
            store.insertAll(inserts);
        }
        if (!updates.isEmpty()) {
            store.updateAll(updates);
        }
    }

    private void load(Collection<String> keys) {
        Map<String, R> found = finder.findAll(keys);
        for (String key : keys) {
            stored.put(key, found.get(key));
        }
    }

    /** A row before and after a batch; {@code before} is null when the batch created it. */
    public record Change<R>(R before, R after) {
    }
}
