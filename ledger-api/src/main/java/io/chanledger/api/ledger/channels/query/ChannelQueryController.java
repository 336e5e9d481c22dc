package io.chanledger.api.ledger.channels.query;

import io.chanledger.api.ledger.channels.command.ContractSettingsHistory;
import io.chanledger.api.ledger.readmodels.ReadModelProperties;
import io.chanledger.api.http.ApiProblem;
import io.chanledger.domain.contract.ContractSettings;
import io.chanledger.domain.eip712.Hex;
import io.chanledger.projections.channel.ChannelBalance;
import io.chanledger.projections.channel.ChannelBalanceRepository;
import io.chanledger.projections.channel.ChannelQuery;
import io.chanledger.projections.rebuild.ReadModelProgress;
import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import java.util.Locale;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.lang.Nullable;

/**
 * Channel balances from the read model: a filtered listing with keyset pagination, and one
 * channel as of at least its last event. Each channel is shown in the view its reader may have
 * ({@link ChannelViewer}): everything to its parties and the admin, the on-chain facts to others.
 */
@RestController
class ChannelQueryController {

    static final String REPLAYING_HEADER = "X-CHAN-Read-Model-Replaying";

    private final ChannelBalanceRepository balances;
    private final ChannelReads reads;
    private final ChannelAudience audience;
    private final ReadModelProgress progress;
    private final ReadModelProperties readModels;
    private final ContractSettingsHistory contract;

    ChannelQueryController(ChannelBalanceRepository balances, ChannelReads reads, ChannelAudience audience,
                           ReadModelProgress progress, ReadModelProperties readModels, ContractSettingsHistory contract) {
        this.balances = balances;
        this.reads = reads;
        this.audience = audience;
        this.progress = progress;
        this.readModels = readModels;
        this.contract = contract;
    }

    record ChannelPage(List<ChannelResponse> channels, @Nullable String nextCursor) {
    }

    @GetMapping(path = "/api/channels", produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<ChannelPage> list(@RequestParam(required = false) String provider,
                                     @RequestParam(required = false) String consumer,
                                     @RequestParam(required = false) String status,
                                     @RequestParam(required = false) String atRisk,
                                     @RequestParam(required = false) String cursor,
                                     @RequestParam(required = false) String limit,
                                     HttpServletRequest request) {
        ChannelQuery query = ChannelListParameters.parse(provider, consumer, status, atRisk, cursor, limit);
        ChannelViewer viewer = audience.viewerOf(request);
        viewer.requireFullViewOfFiltered(query);
        long now = reads.now();
        long window = readModels.atRiskWindow().toSeconds();
        ContractSettings settings = contract.current();
        List<ChannelBalance> rows = balances.page(withOneMore(query), now + window);
        boolean more = rows.size() > query.limit();
        List<ChannelBalance> page = more ? rows.subList(0, query.limit()) : rows;
        String next = more ? Cursors.channels(page.getLast().channelId()) : null;
        return ChannelAudience.okForThisCaller()
                .header(REPLAYING_HEADER, Boolean.toString(progress.replaying()))
                .body(new ChannelPage(page.stream()
                        .map(row -> ChannelResponse.of(row, viewer.viewOfListed(row.state().consumer(), row.state().provider()),
                                settings, now, window))
                        .toList(), next));
    }

    @GetMapping(path = "/api/channels/{channelId}", produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<ChannelResponse> channel(@PathVariable String channelId, HttpServletRequest request) {
        if (!Hex.isBytes32(channelId)) {
            throw new ApiProblem(HttpStatus.BAD_REQUEST, "invalid_channel_id",
                    "channelId must be 0x followed by 64 hex digits");
        }
        String id = channelId.toLowerCase(Locale.ROOT);
        ChannelViewer viewer = audience.viewerOf(request);
        ChannelBalance balance = reads.balance(id).orElseThrow(() -> new ApiProblem(HttpStatus.NOT_FOUND,
                "channel_not_found", "no channel " + channelId + " in the ledger"));
        ChannelView view = viewer.viewOf(balance.state().consumer(), balance.state().provider());
        return ChannelAudience.okForThisCaller().body(ChannelResponse.of(balance, view, contract.current(), reads.now(),
                readModels.atRiskWindow().toSeconds()));
    }

    private static ChannelQuery withOneMore(ChannelQuery q) {
        return new ChannelQuery(q.provider(), q.consumer(), q.status(), q.atRisk(), q.after(), q.limit() + 1);
    }
}
