package io.chanledger.api.audit;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chanledger.domain.channel.ChannelState;
import io.chanledger.domain.channel.ChannelEvent;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Every channel's state folded straight from the event store (the source of truth, not a read
 * model that may lag or be rebuilding), one channel at a time in channel id order.
 */
@Component
public class LedgerChannels {

    private final JdbcTemplate jdbc;
    private final TransactionTemplate readOnly;
    private final ObjectMapper json = new ObjectMapper().findAndRegisterModules()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    public LedgerChannels(DataSource dataSource, PlatformTransactionManager transactions) {
        this.jdbc = new JdbcTemplate(dataSource);
        this.jdbc.setFetchSize(1_000);
        this.readOnly = new TransactionTemplate(transactions);
        this.readOnly.setReadOnly(true);
    }

    /** Hands each channel's state to {@code each}; only the channels in {@code only} when it is not empty. */
    public void forEach(Collection<String> only, Consumer<ChannelState> each) {
        StringBuilder sql = new StringBuilder("SELECT aggregate_identifier, payload_type, payload FROM domain_event_entry"
                + " WHERE payload_type IN (");
        List<Object> args = new ArrayList<>();
        for (Class<?> type : ChannelEvent.TYPES) {
            sql.append(args.isEmpty() ? "?" : ", ?");
            args.add(type.getName());
        }
        sql.append(")");
        if (!only.isEmpty()) {
            sql.append(" AND aggregate_identifier IN (").append(String.join(", ", only.stream().map(id -> "?").toList()))
                    .append(")");
            args.addAll(only);
        }
        sql.append(" ORDER BY aggregate_identifier, sequence_number");
        readOnly.executeWithoutResult(status -> {
            Map<String, List<Object>> current = new LinkedHashMap<>();
            jdbc.query(sql.toString(), rows -> {
                String id = rows.getString("aggregate_identifier");
                if (!current.isEmpty() && !current.containsKey(id)) {
                    current.values().forEach(events -> each.accept(ChannelState.replay(events)));
                    current.clear();
                }
                current.computeIfAbsent(id, k -> new ArrayList<>()).add(payload(rows.getString("payload_type"),
                        rows.getString("payload")));
            }, args.toArray());
            current.values().forEach(events -> each.accept(ChannelState.replay(events)));
        });
    }

    private Object payload(String type, String payload) {
        try {
            return json.readValue(payload, Class.forName(type));
        } catch (Exception e) {
            throw new IllegalStateException("stored event " + type + " cannot be read: " + e.getMessage(), e);
        }
    }
}
