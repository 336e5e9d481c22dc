package io.chanledger.api.ledger.audit;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chanledger.domain.channel.ChannelState;
import io.chanledger.projections.rebuild.EventTable;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Every channel's state folded straight from the event store (the source of truth, not a read
 * model that may lag or be rebuilding), one channel at a time in channel id order.
 */
@Component
public class LedgerChannels {

    private final EventTable table;
    private final TransactionTemplate readOnly;
    private final ObjectMapper json = new ObjectMapper().findAndRegisterModules()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    public LedgerChannels(EventTable table, PlatformTransactionManager transactions) {
        this.table = table;
        this.readOnly = new TransactionTemplate(transactions);
        this.readOnly.setReadOnly(true);
    }

    /** Hands each channel's state to {@code each}; only the channels in {@code only} when it is not empty. */
    public void forEach(Collection<String> only, Consumer<ChannelState> each) {
        readOnly.executeWithoutResult(status -> {
            Map<String, List<Object>> current = new LinkedHashMap<>();
            table.channelEvents(only, rows -> {
                String id = rows.getString("aggregate_identifier");
                if (!current.isEmpty() && !current.containsKey(id)) {
                    current.values().forEach(events -> each.accept(ChannelState.replay(events)));
                    current.clear();
                }
                current.computeIfAbsent(id, k -> new ArrayList<>()).add(payload(rows.getString("payload_type"),
                        rows.getString("payload")));
            });
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
