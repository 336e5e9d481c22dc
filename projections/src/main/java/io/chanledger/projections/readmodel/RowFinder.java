package io.chanledger.projections.readmodel;

import java.util.Collection;
import java.util.Map;

/** Where a {@link RowBatch} finds the rows of its keys as they stand before the batch. */
@FunctionalInterface
public interface RowFinder<R extends SequencedRow> {

    /** The existing rows among {@code keys}, by key; absent keys are missing from the map. */
    Map<String, R> findAll(Collection<String> keys);
}
