package io.chanledger.projections.readmodel;

import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * Where a projection applies one event to the row it concerns. Both rules make redelivery
 * harmless: an event that creates a row is ignored when the row exists, and one that changes a
 * row is ignored when there is no row or its sequence number is not above the row's last.
 */
public interface RowChanges<R extends SequencedRow> {

    /** Applies an event that creates the row; ignored when the row exists already. */
    boolean create(String key, Supplier<R> row);

    /** Applies an event to an existing row; ignored when there is no row or the event was applied before. */
    boolean update(String key, long sequence, UnaryOperator<R> transition);
}
