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
 * are known up front), changed in memory event by event, and written back at the end with one
 * batched INSERT and one batched UPDATE. An event whose sequence number is not above the row's
 * last applied one was applied before and is skipped, which makes redelivery harmless.
 */
public final class RowBatch<R extends SequencedRow> {

    private final RowStore<R> store;
    /** Rows as stored before this batch; a key mapped to null is known to be absent. */
    private final Map<String, R> stored = new HashMap<>();
    private final Map<String, R> current = new LinkedHashMap<>();

    public RowBatch(RowStore<R> store, Collection<String> prefetch) {
        this.store = store;
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

    /** Applies an event that creates the row; ignored when the row exists already. */
    public boolean create(String key, Supplier<R> row) {
        if (get(key) != null) {
            return false;
        }
        current.put(key, row.get());
        return true;
    }

    /** Applies an event to an existing row; ignored when there is no row or the event was applied before. */
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

    /** Writes the changed rows back. */
    public void flush() {
        List<R> inserts = new ArrayList<>();
        List<R> updates = new ArrayList<>();
        current.forEach((key, row) -> (stored.get(key) == null ? inserts : updates).add(row));
        if (!inserts.isEmpty()) {
            store.insertAll(inserts);
        }
        if (!updates.isEmpty()) {
            store.updateAll(updates);
        }
    }

    private void load(Collection<String> keys) {
        Map<String, R> found = store.findAll(keys);
        for (String key : keys) {
            stored.put(key, found.get(key));
        }
    }

    /** A row before and after a batch; {@code before} is null when the batch created it. */
    public record Change<R>(R before, R after) {
    }
}
