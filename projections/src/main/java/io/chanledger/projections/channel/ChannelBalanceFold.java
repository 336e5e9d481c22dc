package io.chanledger.projections.channel;

import io.chanledger.domain.channel.ChannelEvent;
import io.chanledger.projections.readmodel.RowBatch;
import io.chanledger.projections.readmodel.RowChanges;
import io.chanledger.projections.readmodel.RowFinder;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * Folds a rebuild's whole event stream into channel balances in memory, with the projection's
 * own per-event logic, so that a row is written about once however many events it took rather
 * than once per batch of events. Rows stay in memory while they are among the
 * {@code rowsInMemory} most recently touched; older ones are handed on, {@code rowsPerWrite} at a
 * time, to be written (by {@link ChannelBalanceProjection#write}, usually on another thread)
 * while the fold goes on. A row needed again after it was handed on is taken back from what is
 * not yet written, or read from the table once it is: the result equals folding every event
 * into the table one batch at a time, whatever the two limits.
 *
 * <p>It takes the event store's stream as it is: every event once, a channel's events in
 * sequence order (a row already in the table is still found, and the events it holds skipped).
 * Not thread-safe, except {@link #written}, which the writer calls after each commit.
 */
public final class ChannelBalanceFold implements RowChanges<ChannelBalance> {

    /** A channel event to fold: its channel, its sequence number in the channel, when, and the payload. */
    public record Event(String channelId, long sequence, Instant at, ChannelEvent payload) {
    }

    /**
     * A channel's row in memory: as it is now, and as the table has it or will once the writer
     * commits (null for a row the table has never had). One slot per channel, so that an event
     * costs one look-up.
     */
    private static final class Slot {
        private final ChannelBalance stored;
        private ChannelBalance current;

        Slot(ChannelBalance stored, ChannelBalance current) {
            this.stored = stored;
            this.current = current;
        }
    }

    private final ChannelBalanceProjection projection;
    private final RowFinder<ChannelBalance> table;
    private final int rowsInMemory;
    private final int rowsPerWrite;
    private final Consumer<List<RowBatch.Change<ChannelBalance>>> writer;
    /** Rows in memory, least recently touched first. */
    private final LinkedHashMap<String, Slot> live = new LinkedHashMap<>(1024, 0.75f, true);
    /** Changes taken out of memory and not yet handed to the writer, by channel. */
    private final LinkedHashMap<String, RowBatch.Change<ChannelBalance>> pending = new LinkedHashMap<>();
    /** Rows handed to the writer whose transaction has not committed yet. */
    private final Map<String, ChannelBalance> unwritten = new ConcurrentHashMap<>();
    private final boolean tableHeldRows;
    private boolean tableMayHoldRows;

    /**
     * @param tableHoldsRows whether {@code channel_balance} may already hold rows (false right
     *        after a reset: then no row is looked up in the table until the fold has handed some
     *        on, and never for a channel whose opening it folds)
     * @param writer receives each list of changes to write, in order; it must call
     *        {@link #written} once the list is committed
     */
    public ChannelBalanceFold(ChannelBalanceProjection projection, RowFinder<ChannelBalance> table, boolean tableHoldsRows,
                              int rowsInMemory, int rowsPerWrite, Consumer<List<RowBatch.Change<ChannelBalance>>> writer) {
        if (rowsInMemory < 1 || rowsPerWrite < 1) {
            throw new IllegalArgumentException("rows in memory and rows per write must be at least 1");
        }
        this.projection = projection;
        this.table = table;
        this.tableHeldRows = tableHoldsRows;
        this.tableMayHoldRows = tableHoldsRows;
        this.rowsInMemory = rowsInMemory;
        this.rowsPerWrite = rowsPerWrite;
        this.writer = writer;
    }

    /** Applies {@code events}, in order; the rows they need that are not in memory are found in one go. */
    public void apply(List<Event> events) {
        // channels not in memory, and whether their first event here opens them
        Map<String, Boolean> missing = new LinkedHashMap<>();
        for (Event event : events) {
            if (!live.containsKey(event.channelId())) {
                // the store orders a channel's events by sequence: an opening has nothing before it
                missing.putIfAbsent(event.channelId(), event.sequence() == 0 && !tableHeldRows);
            }
        }
        if (!missing.isEmpty()) {
            bringBack(missing);
        }
        for (Event event : events) {
            projection.apply(this, event.payload(), event.sequence(), event.at());
        }
        Iterator<Map.Entry<String, Slot>> oldest = live.entrySet().iterator();
        for (int excess = live.size() - rowsInMemory; excess > 0; excess--) {
            Map.Entry<String, Slot> row = oldest.next();
            oldest.remove();
            setAside(row.getKey(), row.getValue());
        }
    }

    /** Hands every row still in memory to the writer. */
    public void finish() {
        live.forEach(this::setAside);
        live.clear();
        handOn();
    }

    /** The writer has committed {@code changes}: their rows are in the table now. */
    public void written(List<RowBatch.Change<ChannelBalance>> changes) {
        for (RowBatch.Change<ChannelBalance> change : changes) {
            unwritten.remove(change.after().key(), change.after());
        }
    }

    /** For the projection's logic, as {@link RowBatch#create} does it. */
    @Override
    public boolean create(String key, Supplier<ChannelBalance> row) {
        if (live.containsKey(key)) {
            return false;
        }
        live.put(key, new Slot(null, row.get()));
        return true;
    }

    /** For the projection's logic, as {@link RowBatch#update} does it. */
    @Override
    public boolean update(String key, long sequence, UnaryOperator<ChannelBalance> transition) {
        Slot slot = live.get(key);
        if (slot == null || sequence <= slot.current.lastSequence()) {
            return false;
        }
        slot.current = transition.apply(slot.current);
        return true;
    }

    private void setAside(String channelId, Slot slot) {
        if (slot.current == slot.stored) {
            return;
        }
        pending.put(channelId, new RowBatch.Change<>(slot.stored, slot.current));
        if (pending.size() >= rowsPerWrite) {
            handOn();
        }
    }

    private void handOn() {
        if (pending.isEmpty()) {
            return;
        }
        List<RowBatch.Change<ChannelBalance>> changes = new ArrayList<>(pending.values());
        pending.clear();
        for (RowBatch.Change<ChannelBalance> change : changes) {
            unwritten.put(change.after().key(), change.after());
        }
        tableMayHoldRows = true;
        writer.accept(changes);
    }

    /**
     * Brings the rows of channels not in memory back into it, from wherever they are: set aside,
     * on their way to the table, or in it. A channel found nowhere has no row yet.
     */
    private void bringBack(Map<String, Boolean> missing) {
        List<String> elsewhere = new ArrayList<>();
        missing.forEach((channelId, opening) -> {
            RowBatch.Change<ChannelBalance> setAside = pending.remove(channelId);
            if (setAside != null) {
                live.put(channelId, new Slot(setAside.before(), setAside.after()));
                return;
            }
            // read before the writer may drop it: a row missing here is committed, or never was
            ChannelBalance onItsWay = unwritten.get(channelId);
            if (onItsWay != null) {
                live.put(channelId, new Slot(onItsWay, onItsWay));
            } else if (tableMayHoldRows && !opening) {
                elsewhere.add(channelId);
            }
        });
        if (!elsewhere.isEmpty()) {
            table.findAll(elsewhere).forEach((channelId, row) -> live.put(channelId, new Slot(row, row)));
        }
    }
}
