package io.chanledger.api.ledger.channels.command;

import io.chanledger.api.ledger.chain.ListenerProperties;
import io.chanledger.api.http.ClientAddress;
import io.chanledger.api.http.ClientRateLimiter;
import io.chanledger.domain.channel.ChannelLookup;
import io.chanledger.domain.channel.OnChainChannel;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

/**
 * The contract's {@code getChannel}, asked on behalf of a voucher for a channel the ledger has not
 * recorded. Such a voucher costs nothing to send (any key signs one for any id) but two node calls
 * to judge, so the look-ups are bounded before they reach the node:
 *
 * <ul>
 * <li>a "not on chain" answer is remembered per channel id for {@code not-found-ttl}, briefly, so
 *     that a channel opened a moment later is found;</li>
 * <li>concurrent look-ups of one id make one call, whose answer they share;</li>
 * <li>every other look-up takes a token from its client's bucket and one from the bucket of all
 *     clients together; without both it is refused with {@link LookupRefusedException} (429).</li>
 * </ul>
 *
 * Vouchers of channels the ledger knows never come here, so paying agents are not held back by
 * whoever exhausts the budgets. Failures of the node are not remembered: only zeros mean "not on chain".
 */
@Component
public class FreshChannelLookups {

    /** The client of a look-up made outside an HTTP request: all of them share one bucket. */
    static final String NO_REQUEST = "(no request)";
    private static final String ALL_CLIENTS = "(all clients)";

    private final ChannelLookup chain;
    private final String clientIpHeader;
    private final long notFoundTtlNanos;
    private final int maxNotFound;
    private final LongSupplier nanoTime;
    private final ClientRateLimiter perClient;
    private final ClientRateLimiter total;
    // channel id → System.nanoTime() until which "not on chain" is answered without asking
    private final Map<String, Long> notFoundUntil = new ConcurrentHashMap<>();
    private final Map<String, CompletableFuture<Optional<OnChainChannel>>> running = new ConcurrentHashMap<>();
    private final Counter found;
    private final Counter notFound;
    private final Counter rememberedNotFound;
    private final Counter joined;
    private final Counter refusedClient;
    private final Counter refusedTotal;

    @Autowired
    FreshChannelLookups(ObjectProvider<ChannelLookup> chain, ListenerProperties listener, MeterRegistry meters) {
        this(chain.getIfAvailable(), listener.lookup(), System::nanoTime, meters);
    }

    /** {@code chain} null: the service has no node, and no channel is found. */
    FreshChannelLookups(ChannelLookup chain, ListenerProperties.Lookup settings, LongSupplier nanoTime,
                        MeterRegistry meters) {
        this.chain = chain;
        this.clientIpHeader = settings.clientIpHeader();
        this.notFoundTtlNanos = settings.notFoundTtl().toNanos();
        this.maxNotFound = settings.maxNotFound();
        this.nanoTime = nanoTime;
        this.perClient = new ClientRateLimiter(settings.perClient().capacity(), settings.perClient().refillInterval(),
                settings.maxClients(), nanoTime);
        this.total = new ClientRateLimiter(settings.total().capacity(), settings.total().refillInterval(), 1, nanoTime);
        this.found = outcome(meters, "found");
        this.notFound = outcome(meters, "not_found");
        this.rememberedNotFound = outcome(meters, "remembered_not_found");
        this.joined = outcome(meters, "joined");
        this.refusedClient = outcome(meters, "refused_client");
        this.refusedTotal = outcome(meters, "refused_total");
    }

    private static Counter outcome(MeterRegistry meters, String outcome) {
        return Counter.builder("chan.voucher.lookups").tag("outcome", outcome)
                .description("getChannel look-ups of channels the ledger has not recorded, by outcome")
                .register(meters);
    }

    /**
     * The channel as the contract has it, for the client of the HTTP request being served (both
     * callers, the ledger's voucher endpoint and the provider gateway, admit vouchers on the
     * request's own thread, so it is read from Spring's request context rather than passed down).
     */
    public Optional<OnChainChannel> find(String channelId) {
        return find(channelId, currentClient());
    }

    Optional<OnChainChannel> find(String channelId, String client) {
        if (chain == null) {
            return Optional.empty();
        }
        String id = channelId.toLowerCase(Locale.ROOT);
        if (rememberedAsNotFound(id)) {
            rememberedNotFound.increment();
            return Optional.empty();
        }
        CompletableFuture<Optional<OnChainChannel>> underWay = running.get(id);
        if (underWay != null) {
            joined.increment();
            return ChannelCommits.join(underWay);
        }
        takeBudget(client);
        CompletableFuture<Optional<OnChainChannel>> mine = new CompletableFuture<>();
        underWay = running.putIfAbsent(id, mine);
        if (underWay != null) {
            joined.increment();
            return ChannelCommits.join(underWay);
        }
        try {
            Optional<OnChainChannel> answer = rememberedAsNotFound(id) ? Optional.empty() : chain.find(id);
            if (answer.isEmpty()) {
                notFound.increment();
                rememberNotFound(id);
            } else {
                found.increment();
            }
            mine.complete(answer);
            return answer;
        } catch (RuntimeException | Error e) {
            mine.completeExceptionally(e);
            throw e;
        } finally {
            running.remove(id, mine);
        }
    }

    /** The client's token first, so that one client spending its own budget leaves the total untouched. */
    private void takeBudget(String client) {
        Duration wait = perClient.acquire(client);
        if (!wait.isZero()) {
            refusedClient.increment();
            throw new LookupRefusedException("too many vouchers for channels unknown to the ledger from this"
                    + " address; open the channel on-chain first, or send again later", wait);
        }
        wait = total.acquire(ALL_CLIENTS);
        if (!wait.isZero()) {
            refusedTotal.increment();
            throw new LookupRefusedException("too many vouchers for channels unknown to the ledger right now;"
                    + " send again later", wait);
        }
    }

    private boolean rememberedAsNotFound(String id) {
        Long until = notFoundUntil.get(id);
        if (until == null) {
            return false;
        }
        if (nanoTime.getAsLong() - until < 0) {
            return true;
        }
        notFoundUntil.remove(id, until);
        return false;
    }

    private void rememberNotFound(String id) {
        if (notFoundTtlNanos == 0) {
            return;
        }
        long now = nanoTime.getAsLong();
        if (notFoundUntil.size() >= maxNotFound) {
            notFoundUntil.values().removeIf(until -> now - until >= 0);
            if (notFoundUntil.size() >= maxNotFound) {
                // every entry is still fresh: forget them rather than grow; the budgets still bound the node calls
                notFoundUntil.clear();
            }
        }
        notFoundUntil.put(id, now + notFoundTtlNanos);
    }

    private String currentClient() {
        RequestAttributes attributes = RequestContextHolder.getRequestAttributes();
        return attributes instanceof ServletRequestAttributes servlet
                ? ClientAddress.of(servlet.getRequest(), clientIpHeader) : NO_REQUEST;
    }
}
