package io.chanledger.api.ledger.channels.command;

import io.chanledger.api.eventstore.ChannelCacheGuard;
import io.chanledger.api.eventstore.CommitFlush;
import io.chanledger.api.config.LedgerProperties;
import io.chanledger.api.eventstore.LingeringReaderEventStore;
import io.chanledger.api.eventstore.LoneCommit;
import io.chanledger.api.eventstore.ServiceThreads;
import io.chanledger.api.eventstore.StorageConflicts;
import io.chanledger.domain.channel.AcceptVoucher;
import io.chanledger.domain.channel.RaiseHold;
import io.chanledger.domain.channel.RequestSettlement;
import io.chanledger.domain.channel.SettleRequest;
import io.chanledger.domain.channel.VoucherReceipt;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.annotation.PreDestroy;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.axonframework.commandhandling.CommandBus;
import org.axonframework.commandhandling.CommandResultMessage;
import org.axonframework.commandhandling.GenericCommandMessage;
import org.axonframework.common.lock.DeadlockException;
import org.axonframework.common.transaction.TransactionManager;
import org.axonframework.messaging.unitofwork.DefaultUnitOfWork;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Group commit for vouchers. Concurrent vouchers share one database transaction instead of
 * paying one commit each: a worker takes whatever is waiting (up to a bound), runs each voucher
 * through the Channel aggregate as a nested unit of work of one root unit of work, and commits
 * them together. Nested units of work keep their aggregate locks and hand their events to the
 * root, so nothing is visible, cached or acknowledged before the shared commit succeeds.
 *
 * <p>Instances share the event store: before a batch is decided, one query checks that every
 * channel it touches is cached as new as the store ({@link ChannelCacheGuard}). If another
 * instance still wrote to one of them in the meantime, the shared commit fails on the store's
 * unique sequence numbers; the whole batch is then rolled back (which drops its channels from the
 * cache) and decided again on fresh state, so the other vouchers of the batch are not failed for
 * it. Any other failure of the commit fails every voucher of the batch, and nothing of it is kept.
 *
 * <p>Vouchers are routed to workers by channel, so a channel's vouchers keep their arrival order
 * and two workers never wait on each other's locks. The provider gateway's settlements of paid
 * requests (and the raised holds of its streams) ride the same batches, for the same reason: one
 * commit per request is what limits paid throughput.
 *
 * <p>A batch of one command (what a lone agent's requests make) is committed alone: no
 * transaction, and the statement that appends its events writes what is kept beside them and
 * commits them together ({@link LoneCommit}). It is decided, checked, retried and failed exactly as
 * a batch is; only the round trips of a transaction are saved.
 *
 * <p>A paid request's admission and its settlement are not checked against the store first: each
 * records an event when it succeeds, and an event decided on a stale copy takes a sequence number
 * another instance's event already has, so the commit fails and the batch is decided again on
 * fresh state. Only when one of them records nothing (a refusal, a settlement of a request not
 * running) could a stale copy have decided it: it is then decided again after a check, before
 * anyone is answered.
 */
@Component
class VoucherCommitBatcher {

    private static final Logger log = LoggerFactory.getLogger(VoucherCommitBatcher.class);
    private static final int RETRIES_ON_LOCK_CONFLICT = 3;
    /** Runs of one batch that lost a race with another instance; each re-run decides on fresh state. */
    static final int RUNS_ON_STORE_CONFLICT = 8;

    /**
     * A command waiting for its commit; {@code alongside}, when set, is handed the command's result
     * and writes rows of its own in the same transaction (a paid answer with its settlement).
     */
    private record Pending(Object command, String channelId, CompletableFuture<Object> reply, int attempt,
                           Consumer<Object> alongside, boolean checked) {

        Pending(Object command, String channelId, CompletableFuture<Object> reply, int attempt,
                Consumer<Object> alongside) {
            this(command, channelId, reply, attempt, alongside, false);
        }

        Pending(Object command, String channelId, CompletableFuture<Object> reply, int attempt) {
            this(command, channelId, reply, attempt, null);
        }

        /** The same command, to be decided again on its channel checked against the store. */
        Pending checkedFirst() {
            return new Pending(command, channelId, reply, attempt, alongside, true);
        }
    }

    private final CommandBus commandBus;
    private final TransactionManager transactionManager;
    private final ChannelCacheGuard cacheGuard;
    private final CommitFlush commitFlush;
    private final int maxBatch;
    private final List<BlockingQueue<Pending>> queues = new ArrayList<>();
    private final List<Thread> workers = new ArrayList<>();
    private final DistributionSummary batchSizes;
    private final Counter storeConflicts;
    private final Counter decidedAgain;
    private volatile boolean running = true;

    VoucherCommitBatcher(CommandBus commandBus, TransactionManager transactionManager, ChannelCacheGuard cacheGuard,
                         CommitFlush commitFlush, LedgerProperties properties, MeterRegistry meters) {
        this.commandBus = commandBus;
        this.transactionManager = transactionManager;
        this.cacheGuard = cacheGuard;
        this.commitFlush = commitFlush;
        this.maxBatch = LedgerProperties.GROUP_COMMIT_MAX_BATCH;
        this.batchSizes = DistributionSummary.builder("chan.voucher.commit.batch")
                .description("vouchers sharing one database commit").register(meters);
        this.storeConflicts = Counter.builder("chan.voucher.commit.conflicts")
                .description("batches decided again because another instance wrote to one of their channels first")
                .register(meters);
        this.decidedAgain = Counter.builder("chan.voucher.commit.checked-again")
                .description("paid requests' admissions and settlements that recorded nothing unchecked, "
                        + "decided again after a check against the store")
                .register(meters);
        for (int i = 0; i < LedgerProperties.GROUP_COMMIT_WORKERS; i++) {
            BlockingQueue<Pending> queue = new LinkedBlockingQueue<>();
            queues.add(queue);
            Thread worker = Thread.ofPlatform().name(ServiceThreads.COMMIT_WORKER_PREFIX + i).daemon().start(() -> work(queue));
            workers.add(worker);
        }
    }

    /** Judges the voucher in the next shared commit; completes once that commit has succeeded. */
    CompletableFuture<VoucherReceipt> submit(AcceptVoucher command) {
        CompletableFuture<Object> reply = new CompletableFuture<>();
        enqueue(new Pending(command, command.channelId(), reply, 0));
        return reply.thenApply(VoucherReceipt.class::cast);
    }

    /** Settles a paid request in the next shared commit; completes once that commit has succeeded. */
    CompletableFuture<RequestSettlement> submit(SettleRequest command) {
        CompletableFuture<Object> reply = new CompletableFuture<>();
        enqueue(new Pending(command, command.channelId(), reply, 0));
        return reply.thenApply(RequestSettlement.class::cast);
    }

    /**
     * Settles a paid request in the next shared commit and, in that same commit, runs
     * {@code alongside} with the settlement (it writes with the shared transaction's connection);
     * completes once that commit has succeeded. If {@code alongside} fails, the batch is rolled back.
     */
    CompletableFuture<RequestSettlement> submit(SettleRequest command, Consumer<RequestSettlement> alongside) {
        CompletableFuture<Object> reply = new CompletableFuture<>();
        enqueue(new Pending(command, command.channelId(), reply, 0,
                result -> alongside.accept((RequestSettlement) result)));
        return reply.thenApply(RequestSettlement.class::cast);
    }

    /**
     * {@link #submit(SettleRequest, Consumer)} in the caller's thread, in a commit of its own: for a
     * ledger that does not group its commits.
     */
    CompletableFuture<RequestSettlement> settleAlone(SettleRequest command, Consumer<RequestSettlement> alongside) {
        CompletableFuture<Object> reply = new CompletableFuture<>();
        commit(List.of(new Pending(command, command.channelId(), reply, 0,
                result -> alongside.accept((RequestSettlement) result))));
        return reply.thenApply(RequestSettlement.class::cast);
    }

    /** Raises a streamed request's hold in the next shared commit; completes once that commit has succeeded. */
    CompletableFuture<BigInteger> submit(RaiseHold command) {
        CompletableFuture<Object> reply = new CompletableFuture<>();
        enqueue(new Pending(command, command.channelId(), reply, 0));
        return reply.thenApply(BigInteger.class::cast);
    }

    private void enqueue(Pending pending) {
        if (!running) {
            pending.reply().completeExceptionally(new IllegalStateException("the ledger is shutting down"));
            return;
        }
        queues.get(workerOf(pending)).add(pending);
    }

    private int workerOf(Pending pending) {
        return Math.floorMod(pending.channelId().hashCode(), queues.size());
    }

    private void work(BlockingQueue<Pending> queue) {
        List<Pending> batch = new ArrayList<>(maxBatch);
        while (running) {
            try {
                Pending first = queue.poll(500, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                batch.add(first);
                queue.drainTo(batch, maxBatch - 1);
                commit(batch);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException unexpected) {
                log.error("voucher batch failed unexpectedly", unexpected);
                batch.forEach(p -> p.reply().completeExceptionally(unexpected));
            } finally {
                batch.clear();
            }
        }
    }

    private void commit(List<Pending> batch) {
        batchSizes.record(batch.size());
        for (int run = 1; ; run++) {
            List<CommandResultMessage<?>> results;
            try {
                results = decideAndCommit(batch);
            } catch (RuntimeException failure) {
                if (StorageConflicts.isConflict(failure) && run < RUNS_ON_STORE_CONFLICT) {
                    storeConflicts.increment();
                    log.debug("batch of {} decided again: another instance wrote to one of its channels ({})",
                            batch.size(), failure.getMessage());
                    continue;
                }
                batch.forEach(p -> p.reply().completeExceptionally(failure));
                return;
            }
            for (int i = 0; i < batch.size(); i++) {
                reply(batch.get(i), results.get(i));
            }
            return;
        }
    }

    /**
     * One run of a batch: all of it is committed, or none of it and the failure is thrown. A batch
     * of one command is committed alone, by the statement that appends its events, with no
     * transaction ({@link LoneCommit}), where the pool allows it.
     */
    private List<CommandResultMessage<?>> decideAndCommit(List<Pending> batch) {
        if (batch.size() == 1 && commitFlush.commitsAlone()) {
            return LoneCommit.run(() -> decideAndCommit(batch, true));
        }
        return decideAndCommit(batch, false);
    }

    private List<CommandResultMessage<?>> decideAndCommit(List<Pending> batch, boolean alone) {
        List<CommandResultMessage<?>> results = new ArrayList<>(batch.size());
        DefaultUnitOfWork<?> root = DefaultUnitOfWork.startAndGet(null);
        try {
            LingeringReaderEventStore.markPaymentCommit(root);
            Set<String> checked = new LinkedHashSet<>();
            Set<String> unchecked = new LinkedHashSet<>();
            boolean holdsOnly = true;
            for (Pending pending : batch) {
                (decidedUnchecked(pending) ? unchecked : checked).add(pending.channelId());
                holdsOnly &= isHold(pending.command());
            }
            if (!alone && holdsOnly) {
                commitFlush.startWithoutWaiting(() -> root.attachTransaction(transactionManager));
            } else if (!alone) {
                root.attachTransaction(transactionManager);
            }
            unchecked.removeAll(checked);
            cacheGuard.refresh(checked, root);
            cacheGuard.trust(unchecked, root);
            for (Pending pending : batch) {
                CommandResultMessage<?> result = dispatchNested(pending.command());
                if (decidedUnchecked(pending) && unchecked.contains(pending.channelId()) && recordedNothing(result)) {
                    result = null; // decided again, checked, once this batch is committed
                }
                results.add(result);
                if (pending.alongside() != null && result != null && !result.isExceptional()) {
                    pending.alongside().accept(result.getPayload());
                }
            }
            if (alone && holdsOnly) {
                commitFlush.commitAloneWithoutWaiting(root::commit);
            } else {
                root.commit();
            }
            return results;
        } catch (RuntimeException failure) {
            if (root.isActive()) {
                root.rollback(failure);
            }
            throw failure;
        }
    }

    /**
     * Whether the command is a gateway's admission of a paid request: a batch of these alone
     * commits without waiting for the disk ({@link CommitFlush}). An admission is a hold, told to
     * no one outside this process: the gateway calls the upstream on it, and the agent hears of it
     * only with its answer, after the settlement's commit, which waits for the disk and, the log
     * being one sequence, makes the admission durable with it. The hold is visible to every other
     * instance as soon as it commits, which is what stops two of them serving the same room. Only a
     * crash of the database server can lose it, and then with the request it held: that request
     * cannot settle, no one was charged or told anything, and the voucher may be sent again. A
     * batch with anything else in it (a voucher of the ledger API, a settlement) waits.
     */
    static boolean isHold(Object command) {
        return command instanceof AcceptVoucher voucher && voucher.metered();
    }

    /**
     * Whether the command is decided without checking its channel against the store first: a paid
     * request's admission or settlement, on its first decision. Each records an event whenever it
     * succeeds, so a decision on a stale copy fails at the commit.
     */
    private static boolean decidedUnchecked(Pending pending) {
        return !pending.checked() && (pending.command() instanceof SettleRequest
                || pending.command() instanceof AcceptVoucher voucher && voucher.metered());
    }

    /** A refusal, or a settlement that found no running request: nothing the commit would catch. */
    private static boolean recordedNothing(CommandResultMessage<?> result) {
        return result == null || result.isExceptional()
                || result.getPayload() instanceof RequestSettlement settlement && !settlement.settled();
    }

    private CommandResultMessage<?> dispatchNested(Object command) {
        CompletableFuture<CommandResultMessage<?>> result = new CompletableFuture<>();
        // the simple command bus handles the command in this thread, inside the root unit of work
        commandBus.dispatch(GenericCommandMessage.asCommandMessage(command), (message, outcome) -> result.complete(outcome));
        return result.getNow(null);
    }

    private void reply(Pending pending, CommandResultMessage<?> result) {
        if (result == null && decidedUnchecked(pending)) {
            decidedAgain.increment();
            enqueue(pending.checkedFirst());
        } else if (result == null) {
            pending.reply().completeExceptionally(new IllegalStateException("the command bus gave no result"));
        } else if (!result.isExceptional()) {
            pending.reply().complete(result.getPayload());
        } else if (isLockConflict(result.exceptionResult()) && pending.attempt() < RETRIES_ON_LOCK_CONFLICT) {
            enqueue(new Pending(pending.command(), pending.channelId(), pending.reply(), pending.attempt() + 1,
                    pending.alongside(), pending.checked()));
        } else {
            pending.reply().completeExceptionally(result.exceptionResult());
        }
    }

    private static boolean isLockConflict(Throwable failure) {
        return failure instanceof DeadlockException || StorageConflicts.isConflict(failure);
    }

    @PreDestroy
    void stop() throws InterruptedException {
        running = false;
        for (Thread worker : workers) {
            worker.join(5_000);
        }
        queues.forEach(q -> q.forEach(p -> p.reply().completeExceptionally(
                new IllegalStateException("the ledger is shutting down"))));
    }
}
