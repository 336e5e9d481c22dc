package io.chanledger.api.support;

import static org.awaitility.Awaitility.await;

import io.chanledger.api.ledger.channels.command.ChannelHistory;
import io.chanledger.domain.channel.ChannelState;
import java.time.Duration;
import java.util.function.Predicate;

/** Waits for the ledger's record of a channel, read straight from the event store. */
public final class ChannelStates {

    /** How long the ledger may take to record what the chain or the gateway did. */
    public static final Duration LEDGER_WAIT = Duration.ofSeconds(30);

    private ChannelStates() {
    }

    /** The channel's state once it satisfies {@code test}. */
    public static ChannelState awaitState(ChannelHistory history, String channelId, Predicate<ChannelState> test,
                                          String what) {
        return await(what).atMost(LEDGER_WAIT)
                .until(() -> history.state(channelId).filter(test).orElse(null), state -> state != null);
    }
}
