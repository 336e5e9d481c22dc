package io.chanledger.projections.channel;

import io.chanledger.projections.readmodel.RowBatch;
import io.chanledger.projections.readmodel.RowFinder;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

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
public final class ChannelBalanceFold {

    /** A channel event to fold: its channel, its sequence number in the channel, when, and the payload. */
    public record Event(String channelId, long sequence, Instant at, Object payload) {
    }

    private final ChannelBalanceProjection projection;
    private final RowFinder<ChannelBalance> table;
    private final int rowsInMemory;
    private final int rowsPerWrite;
    private final Consumer<List<RowBatch.Change<ChannelBalance>>> writer;
    /** Current rows, least recently touched first. */
    private final LinkedHashMap<String, ChannelBalance> live = new LinkedHashMap<>(1024, 0.75f, true);
    /** For live rows that exist in the table or are on their way there: that version. */
    private final Map<String, ChannelBalance> storedVersion = new HashMap<>();
    /** Changes taken out of memory and not yet handed to the writer, by channel. */
    private final LinkedHashMap<String, RowBatch.Change<ChannelBalance>> pending = new LinkedHashMap<>();
    /** Rows handed to the writer whose transaction has not committed yet. */
    private final Map<String, ChannelBalance> unwritten = new ConcurrentHashMap<>();
    private final boolean tableHeldRows;
    private boolean tableMayHoldRows;
    /** Channels whose first event in the current list opens them: no row of theirs can exist yet. */
    private final Set<String> opening = new HashSet<>();

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

    /** Applies {@code events}, in order; the rows they need are found in one go. */
    public void apply(List<Event> events) {
        Set<String> channelIds = new LinkedHashSet<>();
        opening.clear();
        for (Event event : events) {
            if (channelIds.add(event.channelId()) && event.sequence() == 0 && !tableHeldRows) {
                // the store orders a channel's events by sequence: nothing of it came before
                opening.add(event.channelId());
            }
        }
        RowBatch<ChannelBalance> batch = new RowBatch<>(this::find, channelIds);
        for (Event event : events) {
            projection.apply(batch, event.payload(), event.sequence(), event.at());
        }
        for (RowBatch.Change<ChannelBalance> change : batch.changes()) {
            live.put(change.after().key(), change.after());
        }
        Iterator<Map.Entry<String, ChannelBalance>> oldest = live.entrySet().iterator();
        for (int excess = live.size() - rowsInMemory; excess > 0; excess--) {
            Map.Entry<String, ChannelBalance> row = oldest.next();
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

    private void setAside(String channelId, ChannelBalance row) {
        ChannelBalance stored = storedVersion.remove(channelId);
        if (stored == row) {
            return;
        }
        pending.put(channelId, new RowBatch.Change<>(stored, row));
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

    /** The rows of {@code channelIds} as the fold stands: in memory, set aside, on their way, or in the table. */
    private Map<String, ChannelBalance> find(Collection<String> channelIds) {
        Map<String, ChannelBalance> found = new HashMap<>();
        List<String> elsewhere = new ArrayList<>();
        for (String channelId : channelIds) {
            ChannelBalance row = live.get(channelId);
            if (row != null) {
                found.put(channelId, row);
                continue;
            }
            RowBatch.Change<ChannelBalance> setAside = pending.remove(channelId);
            if (setAside != null) {
                keep(channelId, setAside.before(), setAside.after(), found);
                continue;
            }
            // read before the writer may drop it: a row missing here is committed, or never was
            ChannelBalance onItsWay = unwritten.get(channelId);
            if (onItsWay != null) {
                keep(channelId, onItsWay, onItsWay, found);
            } else if (tableMayHoldRows && !opening.contains(channelId)) {
                elsewhere.add(channelId);
            }
        }
        if (!elsewhere.isEmpty()) {
            table.findAll(elsewhere).forEach((channelId, row) -> keep(channelId, row, row, found));
        }
        return found;
    }

    private void keep(String channelId, ChannelBalance stored, ChannelBalance current, Map<String, ChannelBalance> found) {
        if (stored != null) {
            storedVersion.put(channelId, stored);
        }
        live.put(channelId, current);
        found.put(channelId, current);
    }
}
