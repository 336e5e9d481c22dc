package io.chanledger.projections.readmodel;

import java.util.Collection;
import java.util.List;
import java.util.Map;

/** The batch operations a {@link RowBatch} needs from a table of {@link SequencedRow}s. */
public interface RowStore<R extends SequencedRow> {

    /** The stored rows among {@code keys}, by key; absent keys are missing from the map. */
    Map<String, R> findAll(Collection<String> keys);

    void insertAll(List<R> rows);

    void updateAll(List<R> rows);
}
