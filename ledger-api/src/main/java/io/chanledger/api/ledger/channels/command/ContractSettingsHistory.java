package io.chanledger.api.ledger.channels.command;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chanledger.api.config.ChainProperties;
import io.chanledger.api.config.ProtocolProperties;
import io.chanledger.domain.contract.ContractSettings;
import io.chanledger.domain.contract.FeeUpdated;
import io.chanledger.domain.contract.UsdcUpdated;
import io.chanledger.projections.rebuild.EventTable;
import java.io.IOException;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.springframework.stereotype.Component;

/**
 * The channel contract's fee and token in force, as the ledger recorded them from the contract's
 * logs: {@link ContractSettings} folded from the contract's events in the event store over the
 * configured starting values ({@code chan.protocol.fee-bps}, {@code chan.chain.usdc}), which hold
 * until the first recorded change. Read from the event store on every call (a handful of rows
 * under the store's primary key), so a change is seen by every instance once its batch commits.
 * Plain JDBC, so the audit tool, which runs without Axon, reads it the same way.
 */
@Component
public class ContractSettingsHistory {

    private static final Map<String, Class<?>> TYPES = Map.of(FeeUpdated.class.getName(), FeeUpdated.class,
            UsdcUpdated.class.getName(), UsdcUpdated.class);

    private final EventTable table;
    private final ChainProperties chain;
    private final BigInteger startingFeeBps;
    private final ObjectMapper json = new ObjectMapper().findAndRegisterModules()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    public ContractSettingsHistory(EventTable table, ChainProperties chain, ProtocolProperties protocol) {
        this.table = table;
        this.chain = chain;
        this.startingFeeBps = BigInteger.valueOf(protocol.feeBps());
    }

    /** The settings after the last recorded change. */
    public ContractSettings current() {
        if (chain.channelContract() == null) {
            return ContractSettings.starting(startingFeeBps, chain.usdc());
        }
        List<Object> events = new ArrayList<>();
        table.aggregate(ContractSettings.idOf(chain.chainId(), chain.channelContract()),
                row -> events.add(payload(row.getString("payload_type"), row.getString("payload"))));
        return ContractSettings.replay(startingFeeBps, chain.usdc(), events);
    }

    private Object payload(String type, String payload) {
        Class<?> target = TYPES.get(type);
        if (target == null) {
            throw new IllegalStateException("the contract's event stream holds an event of type " + type);
        }
        try {
            return json.readValue(payload, target);
        } catch (IOException e) {
            throw new IllegalStateException("stored event " + type + " cannot be read: " + e.getMessage(), e);
        }
    }
}
