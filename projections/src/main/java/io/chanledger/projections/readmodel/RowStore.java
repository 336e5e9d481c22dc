package io.chanledger.projections.readmodel;

import java.util.List;

/** The batch operations a {@link RowBatch} needs from a table of {@link SequencedRow}s. */
public interface RowStore<R extends SequencedRow> extends RowFinder<R> {

    void insertAll(List<R> rows);

    void updateAll(List<R> rows);
}
