package io.chanledger.api.ledger.channels.query;

import io.chanledger.api.http.ApiProblem;
import io.chanledger.api.ledger.channels.command.ChannelHistory;
import io.chanledger.domain.channel.ChannelState;
import io.chanledger.domain.eip712.Hex;
import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import java.util.Locale;
import org.axonframework.eventhandling.DomainEventMessage;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * A channel's event history, a read like its state (voucher admission is the command side's
 * {@code VoucherController}). The history is shown in the view its reader may have
 * ({@link ChannelViewer}): every event to the channel's parties and the admin; to anyone else
 * only the events that restate the chain, so that not even the number of vouchers and settled
 * requests shows.
 */
@RestController
@RequestMapping(path = "/api/channels/{channelId}", produces = MediaType.APPLICATION_JSON_VALUE)
class ChannelController {

    private final ChannelHistory history;
    private final ChannelAudience audience;

    ChannelController(ChannelHistory history, ChannelAudience audience) {
        this.history = history;
        this.audience = audience;
    }

    @GetMapping("/events")
    ResponseEntity<List<ChannelEventResponse>> events(@PathVariable String channelId, HttpServletRequest request) {
        String id = validId(channelId);
        ChannelViewer viewer = audience.viewerOf(request);
        List<DomainEventMessage<?>> events = history.events(id);
        if (events.isEmpty()) {
            throw unknown(channelId);
        }
        ChannelState channel = ChannelState.replay(events.stream().map(DomainEventMessage::getPayload).toList());
        ChannelView view = viewer.viewOf(channel.consumer(), channel.provider());
        return ChannelAudience.okForThisCaller().body(events.stream()
                .filter(event -> view.shows(event.getPayload()))
                .map(event -> ChannelEventResponse.of(event, view))
                .toList());
    }

    private static String validId(String channelId) {
        if (!Hex.isBytes32(channelId)) {
            throw new ApiProblem(HttpStatus.BAD_REQUEST, "invalid_channel_id",
                    "channelId must be 0x followed by 64 hex digits");
        }
        return channelId.toLowerCase(Locale.ROOT);
    }

    private static ApiProblem unknown(String channelId) {
        return new ApiProblem(HttpStatus.NOT_FOUND, "channel_not_found", "no channel " + channelId + " in the ledger");
    }
}
