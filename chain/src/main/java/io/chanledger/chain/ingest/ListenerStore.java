package io.chanledger.chain.ingest;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.axonframework.common.jdbc.ConnectionProvider;

/**
 * The listener's own tables (created by Flyway): its checkpoint and the expiries of the channels
 * it watches, one set per listener id. Connections come from the same provider as the event
 * store's, so inside a batch's transaction these writes commit or roll back with its events.
 */
public final class ListenerStore {

    /** The checkpoint moved under this listener: another instance with the same id is ingesting. */
    public static final class CheckpointMovedException extends RuntimeException {
        CheckpointMovedException(String message) {
            super(message);
        }
    }

    private static final int IN_LIST_CHUNK = 500;

    private final ConnectionProvider connections;

    public ListenerStore(ConnectionProvider connections) {
        this.connections = connections;
    }

    public Optional<Checkpoint> checkpoint(String listenerId) {
        return withConnection(connection -> {
            try (PreparedStatement select = connection.prepareStatement(
                    "SELECT block_number, block_hash, block_timestamp FROM chain_listener_checkpoint WHERE listener_id = ?")) {
                select.setString(1, listenerId);
                try (ResultSet rows = select.executeQuery()) {
                    return rows.next()
                            ? Optional.of(new Checkpoint(rows.getLong(1), rows.getString(2), rows.getLong(3)))
                            : Optional.empty();
                }
            }
        });
    }

    /** Watched channels due by {@code dueBy}, plus those among {@code channelIds} that are watched at all. */
    public Map<String, Long> expiries(String listenerId, long dueBy, Collection<String> channelIds) {
        return withConnection(connection -> {
            Map<String, Long> expiries = new HashMap<>();
            try (PreparedStatement due = connection.prepareStatement(
                    "SELECT channel_id, expiry FROM chain_channel_expiry WHERE listener_id = ? AND expiry <= ?")) {
                due.setString(1, listenerId);
                due.setLong(2, dueBy);
                read(due, expiries);
            }
            List<String> ids = new ArrayList<>(channelIds);
            for (int start = 0; start < ids.size(); start += IN_LIST_CHUNK) {
                List<String> chunk = ids.subList(start, Math.min(ids.size(), start + IN_LIST_CHUNK));
                String marks = String.join(",", java.util.Collections.nCopies(chunk.size(), "?"));
                try (PreparedStatement some = connection.prepareStatement("SELECT channel_id, expiry FROM chain_channel_expiry"
                        + " WHERE listener_id = ? AND channel_id IN (" + marks + ")")) {
                    some.setString(1, listenerId);
                    for (int i = 0; i < chunk.size(); i++) {
                        some.setString(i + 2, chunk.get(i));
                    }
                    read(some, expiries);
                }
            }
            return expiries;
        });
    }

    /**
     * Applies a batch's expiry changes and moves the checkpoint from {@code previous} (null: none
     * yet) to {@code next}. Meant to run inside the batch's transaction.
     *
     * @throws CheckpointMovedException if the stored checkpoint is no longer {@code previous}
     */
    public void write(String listenerId, List<ExpiryChange> changes, Checkpoint previous, Checkpoint next) {
        withConnection(connection -> {
            writeExpiries(connection, listenerId, changes);
            moveCheckpoint(connection, listenerId, previous, next);
            return null;
        });
    }

    private static void writeExpiries(Connection connection, String listenerId, List<ExpiryChange> changes)
            throws SQLException {
        Map<String, Long> finalState = new LinkedHashMap<>();
        for (ExpiryChange change : changes) {
            finalState.put(change.channelId(), change instanceof ExpiryChange.Track track ? track.expiry() : null);
        }
        if (finalState.isEmpty()) {
            return;
        }
        try (PreparedStatement delete = connection.prepareStatement(
                "DELETE FROM chain_channel_expiry WHERE listener_id = ? AND channel_id = ?")) {
            for (String channelId : finalState.keySet()) {
                delete.setString(1, listenerId);
                delete.setString(2, channelId);
                delete.addBatch();
            }
            delete.executeBatch();
        }
        try (PreparedStatement insert = connection.prepareStatement(
                "INSERT INTO chain_channel_expiry (listener_id, channel_id, expiry) VALUES (?, ?, ?)")) {
            boolean any = false;
            for (Map.Entry<String, Long> entry : finalState.entrySet()) {
                if (entry.getValue() != null) {
                    insert.setString(1, listenerId);
                    insert.setString(2, entry.getKey());
                    insert.setLong(3, entry.getValue());
                    insert.addBatch();
                    any = true;
                }
            }
            if (any) {
                insert.executeBatch();
            }
        }
    }

    private static void moveCheckpoint(Connection connection, String listenerId, Checkpoint previous, Checkpoint next)
            throws SQLException {
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
        if (previous == null) {
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO chain_listener_checkpoint"
                    + " (listener_id, block_number, block_hash, block_timestamp, updated_at) VALUES (?, ?, ?, ?, ?)")) {
                insert.setString(1, listenerId);
                insert.setLong(2, next.blockNumber());
                insert.setString(3, next.blockHash());
                insert.setLong(4, next.blockTimestamp());
                insert.setObject(5, now);
                insert.executeUpdate();
            } catch (SQLException duplicate) {
                throw new CheckpointMovedException("listener " + listenerId + " already has a checkpoint: "
                        + duplicate.getMessage());
            }
            return;
        }
        try (PreparedStatement update = connection.prepareStatement("UPDATE chain_listener_checkpoint"
                + " SET block_number = ?, block_hash = ?, block_timestamp = ?, updated_at = ?"
                + " WHERE listener_id = ? AND block_number = ? AND block_hash = ?")) {
            update.setLong(1, next.blockNumber());
            update.setString(2, next.blockHash());
            update.setLong(3, next.blockTimestamp());
            update.setObject(4, now);
            update.setString(5, listenerId);
            update.setLong(6, previous.blockNumber());
            update.setString(7, previous.blockHash());
            if (update.executeUpdate() != 1) {
                throw new CheckpointMovedException("the checkpoint of listener " + listenerId + " is no longer block "
                        + previous.blockNumber());
            }
        }
    }

    private static void read(PreparedStatement statement, Map<String, Long> into) throws SQLException {
        try (ResultSet rows = statement.executeQuery()) {
            while (rows.next()) {
                into.put(rows.getString(1), rows.getLong(2));
            }
        }
    }

    @FunctionalInterface
    private interface SqlWork<T> {
        T run(Connection connection) throws SQLException;
    }

    private <T> T withConnection(SqlWork<T> work) {
        try (Connection connection = connections.getConnection()) {
            return work.run(connection);
        } catch (SQLException e) {
            throw new IllegalStateException("listener store: " + e.getMessage(), e);
        }
    }
}
