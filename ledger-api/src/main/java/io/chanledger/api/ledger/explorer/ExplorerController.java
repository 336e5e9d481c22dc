package io.chanledger.api.ledger.explorer;

import io.chanledger.api.ledger.explorer.ExplorerSummary.Activity;
import io.chanledger.api.ledger.explorer.ExplorerSummary.BusyProvider;
import io.chanledger.api.ledger.explorer.ExplorerSummary.Totals;
import io.chanledger.domain.channel.ChannelClaimed;
import io.chanledger.domain.channel.ChannelClosed;
import io.chanledger.domain.channel.ChannelEvent;
import io.chanledger.domain.channel.ChannelOpened;
import io.chanledger.domain.eip712.Hex;
import io.chanledger.storage.EventStoreMapper;
import io.chanledger.projections.channel.ChannelBalance;
import io.chanledger.projections.channel.ChannelBalanceRepository;
import io.chanledger.projections.channel.NetworkTotals;
import io.chanledger.projections.rebuild.ChannelEventDecoder;
import io.chanledger.projections.rebuild.EventTable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.axonframework.common.DateTimeUtils;
import org.springframework.http.CacheControl;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The channel explorer's view of the whole network, for anyone. Only what the contract and its
 * logs show: channels opened, claimed and closed with their amounts, and sums of those. Nothing
 * off-chain (vouchers, charges, holds, close authorizations) and no returned excess, whose channel
 * would tell what the channel was charged (see docs/api.md, who sees what).
 */
@RestController
class ExplorerController {

    static final int RECENT_ACTIVITY = 20;
    static final int BUSIEST_PROVIDERS = 5;
    private static final List<Class<? extends ChannelEvent>> PUBLIC_ACTIVITY =
            List.of(ChannelOpened.class, ChannelClaimed.class, ChannelClosed.class);

    private final ChannelBalanceRepository balances;
    private final EventTable events;
    private final ChannelEventDecoder decoder = new ChannelEventDecoder(EventStoreMapper.create());

    ExplorerController(ChannelBalanceRepository balances, EventTable events) {
        this.balances = balances;
        this.events = events;
    }

    @GetMapping(path = "/api/explorer/summary", produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<ExplorerSummary> summary() {
        List<Recorded> recent = recentActivity();
        NetworkTotals totals = balances.networkTotals();
        List<BusyProvider> busiest = balances.busiestProviders(BUSIEST_PROVIDERS).stream()
                .map(p -> new BusyProvider(Hex.toChecksumAddress(p.provider()), p.channels(), p.claimed(), p.feesPaid()))
                .toList();
        // a closed channel's events do not name its parties: its balance row does
        Set<String> channelIds = new LinkedHashSet<>();
        recent.forEach(r -> channelIds.add(r.event().channelId()));
        Map<String, ChannelBalance> rows = balances.findAll(channelIds);
        List<Activity> activity = recent.stream().map(r -> activity(r, rows.get(r.event().channelId()))).toList();
        return ResponseEntity.ok()
                // the same for everyone; a few seconds old is fresh enough for an overview
                .cacheControl(CacheControl.maxAge(Duration.ofSeconds(5)).cachePublic())
                .body(new ExplorerSummary(new Totals(totals.channels(), totals.openChannels(), totals.expiredChannels(),
                        totals.locked(), totals.claimed(), totals.feesPaid()), busiest, activity));
    }

    private record Recorded(ChannelEvent event, Instant at) {
    }

    private List<Recorded> recentActivity() {
        List<Recorded> recent = new ArrayList<>();
        events.newest(PUBLIC_ACTIVITY, RECENT_ACTIVITY, row -> {
            try {
                ChannelEvent event = decoder.decode(row.getString("payload_type"),
                        row.getString("payload").getBytes(StandardCharsets.UTF_8), row.getString("aggregate_identifier"));
                recent.add(new Recorded(event, DateTimeUtils.parseInstant(row.getString("time_stamp"))));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read stored event " + row.getLong("global_index"), e);
            }
        });
        return recent;
    }

    private static Activity activity(Recorded recorded, ChannelBalance row) {
        String consumer = row == null ? null : Hex.toChecksumAddress(row.state().consumer());
        String provider = row == null ? null : Hex.toChecksumAddress(row.state().provider());
        return switch (recorded.event()) {
            case ChannelOpened e -> new Activity("opened", e.channelId(), recorded.at(), Hex.toChecksumAddress(e.consumer()),
                    Hex.toChecksumAddress(e.provider()), e.deposit(), e.expiry(), null, null, null, null, null, e.chainRef());
            case ChannelClaimed e -> new Activity("claimed", e.channelId(), recorded.at(), consumer,
                    Hex.toChecksumAddress(e.provider()), null, null, e.payout(), e.fee(), e.totalClaimed(), null, null,
                    e.chainRef());
            case ChannelClosed e -> new Activity("closed", e.channelId(), recorded.at(), consumer, provider, null, null,
                    null, null, null, e.refund(), e.kind() == null ? null : e.kind().name().toLowerCase(Locale.ROOT),
                    e.chainRef());
            default -> throw new IllegalStateException("not a public activity: " + recorded.event());
        };
    }
}
