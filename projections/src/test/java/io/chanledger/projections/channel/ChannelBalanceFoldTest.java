package io.chanledger.projections.channel;

import static io.chanledger.projections.channel.ChannelHistories.channelId;
import static io.chanledger.projections.channel.ChannelHistories.signature;
import static org.assertj.core.api.Assertions.assertThat;

import io.chanledger.domain.channel.ChannelEvent;
import io.chanledger.domain.channel.CloseAuthorized;
import io.chanledger.projections.provideraccount.ProviderAccountRepository;
import io.chanledger.projections.provideraccount.ProviderAccounts;
import io.chanledger.projections.readmodel.ReadModelDatabase;
import io.chanledger.projections.readmodel.RowBatch;
import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import javax.sql.DataSource;
import org.axonframework.eventhandling.AnnotationEventHandlerAdapter;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.GenericDomainEventMessage;
import org.axonframework.messaging.unitofwork.BatchingUnitOfWork;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The rebuild's in-memory fold against the processor's way (batches of events straight into the
 * tables): the same channel balances and provider accounts, whatever the fold's limits, however
 * late its writer commits, and whatever the tables held before.
 */
class ChannelBalanceFoldTest {

    private static final Instant T0 = Instant.parse("2026-11-24T10:00:00.123456789Z");

    private final List<EventMessage<?>> stream = new ArrayList<>();
    private Model expected;

    /** The two read models on a database of their own. */
    private record Model(ChannelBalanceRepository balances, ProviderAccountRepository accounts,
                         ChannelBalanceProjection projection) {

        static Model fresh() {
            DataSource database = ReadModelDatabase.create();
            ProviderAccountRepository accounts = new ProviderAccountRepository(database);
            ChannelBalanceRepository balances = new ChannelBalanceRepository(database);
            return new Model(balances, accounts, new ChannelBalanceProjection(balances, List.of(new ProviderAccounts(accounts))));
        }

        /** What the processor does: the events in batches, each written at its end. */
        void process(List<EventMessage<?>> events, int batchSize) throws Exception {
            AnnotationEventHandlerAdapter adapter = new AnnotationEventHandlerAdapter(projection);
            for (int from = 0; from < events.size(); from += batchSize) {
                BatchingUnitOfWork<EventMessage<?>> batch =
                        new BatchingUnitOfWork<>(events.subList(from, Math.min(events.size(), from + batchSize)));
                batch.executeWithResult(() -> adapter.handle(batch.getMessage()));
            }
        }

        String checksums() {
            return balances.checksum() + " " + accounts.checksum();
        }
    }

    @BeforeEach
    void interleavedHistories() throws Exception {
        Random random = new Random(20261124L);
        Map<String, List<Object>> histories = new LinkedHashMap<>();
        for (int n = 1; n <= 120; n++) {
            histories.put(channelId(n), ChannelHistories.random(channelId(n), random));
        }
        ChannelHistories.interleave(histories, random, stream, T0);
        // events long after the rest of their channel (after its close, for some): by then the
        // fold has handed the row on, and must find it again
        for (int n = 1; n <= 120; n += 7) {
            String channel = channelId(n);
            int sequence = histories.get(channel).size();
            stream.add(new GenericDomainEventMessage<>("ChannelAggregate", channel, sequence,
                    new CloseAuthorized(channel, BigInteger.valueOf(n), signature(channel, n)), Map.of(),
                    UUID.randomUUID().toString(), T0.plusSeconds(10_000 + n)));
        }
        expected = Model.fresh();
        expected.process(stream, 64);
    }

    @ParameterizedTest(name = "{0} rows in memory, {1} per write, writer {2} hand-offs behind, {3} events a hand-off")
    @CsvSource({"1, 1, 0, 7", "3, 2, 1, 7", "10, 4, 3, 7", "50, 50, 0, 7", "100000, 10000, 0, 7", "1, 1, 0, 1",
            "3, 2, 1, 200", "10, 4, 3, 4096", "50, 50, 0, 64"})
    void foldsToTheSameRowsAsTheProcessor(int rowsInMemory, int rowsPerWrite, int writerLag, int eventsPerHandoff) {
        Model rebuilt = Model.fresh();

        fold(rebuilt, false, rowsInMemory, rowsPerWrite, writerLag, eventsPerHandoff, stream);

        assertThat(rebuilt.checksums()).isEqualTo(expected.checksums());
        assertThat(rebuilt.balances().count()).isEqualTo(120);
    }

    @ParameterizedTest(name = "{0} events a hand-off")
    @CsvSource({"7", "500"})
    void finishesARebuildThatStoppedHalfWay(int eventsPerHandoff) throws Exception {
        Model rebuilt = Model.fresh();
        rebuilt.process(stream.subList(0, stream.size() / 2), 64);

        fold(rebuilt, true, 5, 3, 1, eventsPerHandoff, stream);

        assertThat(rebuilt.checksums()).isEqualTo(expected.checksums());
    }

    /**
     * Folds {@code events} into {@code model}, handing them over {@code eventsPerHandoff} at a
     * time; the writer commits each list of changes only once {@code writerLag} more lists have arrived.
     */
    private static void fold(Model model, boolean tableHoldsRows, int rowsInMemory, int rowsPerWrite, int writerLag,
                             int eventsPerHandoff, List<EventMessage<?>> events) {
        Deque<List<RowBatch.Change<ChannelBalance>>> handedOn = new ArrayDeque<>();
        ChannelBalanceFold[] fold = new ChannelBalanceFold[1];
        fold[0] = new ChannelBalanceFold(model.projection(), model.balances(), tableHoldsRows, rowsInMemory,
                rowsPerWrite, changes -> {
                    handedOn.add(changes);
                    while (handedOn.size() > writerLag) {
                        commit(model, fold[0], handedOn.poll());
                    }
                });
        for (int from = 0; from < events.size(); from += eventsPerHandoff) {
            List<ChannelBalanceFold.Event> handoff = new ArrayList<>();
            for (EventMessage<?> message : events.subList(from, Math.min(events.size(), from + eventsPerHandoff))) {
                DomainEventMessage<?> event = (DomainEventMessage<?>) message;
                handoff.add(new ChannelBalanceFold.Event(event.getAggregateIdentifier(), event.getSequenceNumber(),
                        event.getTimestamp(), (ChannelEvent) event.getPayload()));
            }
            fold[0].apply(handoff);
        }
        fold[0].finish();
        while (!handedOn.isEmpty()) {
            commit(model, fold[0], handedOn.poll());
        }
    }

    private static void commit(Model model, ChannelBalanceFold fold, List<RowBatch.Change<ChannelBalance>> changes) {
        model.projection().write(changes);
        fold.written(changes);
    }
}
