package io.chanledger.api.ledger.audit;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.chanledger.api.config.ChainProperties;
import io.chanledger.domain.contract.ContractSettings;
import io.chanledger.projections.rebuild.EventTable;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.List;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Writes stored events as NDJSON, one object per line, oldest first:
 * {@code {"globalIndex","type","aggregateId","sequence","timestamp","payloadType","payload"}}.
 * The payload is the JSON the event store holds, byte for byte, so every chain ref and voucher
 * signature is in it as recorded. Rows are streamed from the database, never held all at once.
 * The export of one channel carries the channel contract's fee and token changes too, so that it
 * verifies on its own.
 */
@Component
public class EventExport {

    private static final JsonFactory JSON = new JsonFactory();

    private final EventTable table;
    private final TransactionTemplate readOnly;
    private final String contractId;

    public EventExport(EventTable table, PlatformTransactionManager transactions, ChainProperties chain) {
        this.table = table;
        this.readOnly = new TransactionTemplate(transactions);
        this.readOnly.setReadOnly(true);
        this.contractId = chain.channelContract() == null ? null
                : ContractSettings.idOf(chain.chainId(), chain.channelContract());
    }

    /**
     * Writes the events after global index {@code after}, at most {@code limit} of them (no limit
     * when null); when {@code channelId} is given, only that channel's and the channel contract's
     * own. Returns how many it wrote.
     */
    public long write(OutputStream out, long after, Long limit, String channelId) {
        List<String> aggregates = channelId == null ? List.of()
                : contractId == null ? List.of(channelId) : List.of(channelId, contractId);
        Long written = readOnly.execute(status -> {
            long[] count = {0};
            try (JsonGenerator json = JSON.createGenerator(out, JsonEncoding.UTF8)) {
                json.configure(JsonGenerator.Feature.AUTO_CLOSE_TARGET, false);
                // one object per line, the newline written below: no separator of Jackson's own
                // (a space by default) in front of every line but the first
                json.setRootValueSeparator(null);
                table.after(after, limit, aggregates, rows -> {
                    try {
                        String payloadType = rows.getString("payload_type");
                        json.writeStartObject();
                        json.writeNumberField("globalIndex", rows.getLong("global_index"));
                        json.writeStringField("type", payloadType.substring(payloadType.lastIndexOf('.') + 1));
                        json.writeStringField("aggregateId", rows.getString("aggregate_identifier"));
                        json.writeNumberField("sequence", rows.getLong("sequence_number"));
                        json.writeStringField("timestamp", rows.getString("time_stamp"));
                        json.writeStringField("payloadType", payloadType);
                        json.writeFieldName("payload");
                        json.writeRawValue(rows.getString("payload"));
                        json.writeEndObject();
                        json.writeRaw('\n');
                        count[0]++;
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
                json.flush();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return count[0];
        });
        return written == null ? 0 : written;
    }
}
