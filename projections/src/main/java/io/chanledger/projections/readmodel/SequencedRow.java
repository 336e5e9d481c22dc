package io.chanledger.projections.readmodel;

/** A read-model row of one aggregate that remembers the sequence number of the last event applied to it. */
public interface SequencedRow {

    /** The aggregate identifier the row belongs to. */
    String key();

    long lastSequence();
}
