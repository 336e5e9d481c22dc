package io.chanledger.api.eventstore;

import io.chanledger.domain.channel.ChannelCommand;
import io.chanledger.projections.rebuild.EventTable;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.axonframework.commandhandling.CommandMessage;
import org.axonframework.messaging.InterceptorChain;
import org.axonframework.messaging.MessageHandlerInterceptor;
import org.axonframework.messaging.unitofwork.UnitOfWork;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;


/**
 * Keeps the channels this instance caches as new as the shared event store. Instances share one
 * database and each caches channels in memory, so a channel another instance wrote to since is
 * stale here: deciding a command on it would answer from old figures, and its events would
 * collide with the other instance's at commit. Before a Channel command is handled, the channel's
 * last sequence number in the store (one index-only look-up) is compared with the cached copy's
 * version; an older copy is dropped and the channel is read from the store.
 *
 * <p>Group commit checks a whole batch with one query ({@link #refresh}) and marks its root unit
 * of work, so that the nested commands of the batch are not looked up again one by one. A write
 * by another instance that lands between the check and the commit still fails at the commit
 * (the store's unique sequence numbers) and is retried on fresh state.
 */
public final class ChannelCacheGuard implements MessageHandlerInterceptor<CommandMessage<?>> {

    private static final Logger log = LoggerFactory.getLogger(ChannelCacheGuard.class);
    private static final String CHECKED = ChannelCacheGuard.class.getName() + ".checked";

    private final BoundedAggregateCache cache;
    private final EventTable events;

    ChannelCacheGuard(BoundedAggregateCache cache, EventTable events) {
        this.cache = cache;
        this.events = events;
    }

    /**
     * Drops every cached channel of {@code channelIds} that is older than the store, and marks the
     * current unit of work's root as checked for them.
     */
    public void refresh(Collection<String> channelIds, UnitOfWork<?> unitOfWork) {
        if (channelIds.isEmpty()) {
            return;
        }
        refresh(channelIds);
        unitOfWork.root().<Set<String>>getOrComputeResource(CHECKED, key -> new HashSet<>()).addAll(channelIds);
    }

    /**
     * Marks the current unit of work's root as checked for {@code channelIds} without looking them
     * up: for commands whose decision on a stale copy cannot be committed (see the batcher).
     */
    public void trust(Collection<String> channelIds, UnitOfWork<?> unitOfWork) {
        if (!channelIds.isEmpty()) {
            unitOfWork.root().<Set<String>>getOrComputeResource(CHECKED, key -> new HashSet<>()).addAll(channelIds);
        }
    }

    /** Drops every cached channel of {@code channelIds} that is older than the store. */
    private void refresh(Collection<String> channelIds) {
        Map<String, Long> cached = new HashMap<>();
        for (String id : channelIds) {
            Long version = cache.cachedVersion(id);
            if (version != null) {
                cached.put(id, version);
            }
        }
        if (cached.isEmpty()) {
            return;
        }
        Set<String> dropped = new LinkedHashSet<>();
        events.lastSequences(List.copyOf(cached.keySet())).forEach((id, latest) -> {
            if (latest != null && latest > cached.get(id)) {
                cache.remove(id);
                dropped.add(id);
            }
        });
        if (!dropped.isEmpty()) {
            log.debug("channels written by another instance, read again from the store: {}", dropped);
        }
    }


    @Override
    public Object handle(UnitOfWork<? extends CommandMessage<?>> unitOfWork, InterceptorChain interceptorChain)
            throws Exception {
        if (unitOfWork.getMessage().getPayload() instanceof ChannelCommand command) {
            Set<String> checked = unitOfWork.root().getResource(CHECKED);
            if (checked == null || !checked.contains(command.channelId())) {
                refresh(List.of(command.channelId()));
            }
        }
        return interceptorChain.proceed();
    }
}
