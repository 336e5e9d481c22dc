package io.chanledger.api.provider.watchtower;

import io.chanledger.api.provider.gateway.GatewayProperties;
import io.chanledger.api.provider.watchtower.ReturnStore.Return;
import io.chanledger.api.provider.watchtower.ReturnStore.Status;
import io.chanledger.chain.rpc.EthApi;
import io.chanledger.chain.rpc.RpcException;
import io.chanledger.chain.tx.CallResult;
import io.chanledger.chain.tx.SendResult;
import io.chanledger.chain.tx.TransactionRequest;
import io.chanledger.chain.tx.TransactionSender;
import io.chanledger.domain.chain.ChainRef;
import io.chanledger.domain.channel.ChannelState;
import io.chanledger.domain.channel.RecordExcessReturn;
import java.math.BigInteger;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.web3j.abi.EventEncoder;
import org.web3j.abi.FunctionEncoder;
import org.web3j.abi.TypeReference;
import org.web3j.abi.datatypes.Address;
import org.web3j.abi.datatypes.Event;
import org.web3j.abi.datatypes.Function;
import org.web3j.abi.datatypes.generated.Uint256;
import org.web3j.protocol.core.methods.response.Log;
import org.web3j.protocol.core.methods.response.TransactionReceipt;
import org.web3j.utils.Numeric;

/**
 * Gives back to a channel's consumer what the chain paid the provider above the charged total,
 * with a USDC transfer from the provider's account, and records it as the channel's
 * {@code ExcessReturned} once mined. Only for a channel that can be charged no more (expired or
 * closed), so the excess is final; at most one return of a channel is open at a time.
 *
 * <p>The transfer is written down (hash, nonce, signed bytes) before it reaches the node. After
 * that it is only ever looked after: mined, it is recorded; known to the node, it is waited for;
 * unknown, it is handed to the node again, the same bytes, unless its nonce went to another
 * transaction, in which case it can never land and a new one is signed. So a crash at any point
 * never sends the consumer the excess twice. A transfer the token refuses (the provider's account
 * holds too little USDC) is retried after a backoff, and logged.
 */
final class ReturnExecutor {

    private static final Logger log = LoggerFactory.getLogger(ReturnExecutor.class);
    private static final Event TRANSFER = new Event("Transfer", List.of(new TypeReference<Address>(true) { },
            new TypeReference<Address>(true) { }, new TypeReference<Uint256>() { }));
    private static final String TRANSFER_TOPIC = EventEncoder.encode(TRANSFER);

    private final TransactionSender sender;
    private final EthApi eth;
    private final String usdc;
    private final ReturnStore store;
    private final CommandGateway commands;
    private final Clock clock;
    private final WatchtowerProperties settings;
    private final WatchtowerMetrics metrics;

    ReturnExecutor(TransactionSender sender, EthApi eth, String usdc, ReturnStore store, CommandGateway commands,
                   Clock clock, WatchtowerProperties settings, WatchtowerMetrics metrics) {
        this.sender = sender;
        this.eth = eth;
        this.usdc = usdc.toLowerCase(Locale.ROOT);
        this.store = store;
        this.commands = commands;
        this.clock = clock;
        this.settings = settings;
        this.metrics = metrics;
    }

    /**
     * One step of the return of {@code channel}'s excess, {@code minimum} and below not worth a
     * transfer: the row after it, or empty when nothing is owed and nothing is open.
     */
    Optional<Return> step(ChannelState channel, BigInteger minimum) {
        Instant now = clock.instant();
        BigInteger excess = channel.excessClaimed();
        BigInteger returnedTotal = channel.returned().add(excess);
        Optional<Return> open = store.open(channel.channelId());
        Return item;
        if (open.isPresent()) {
            item = open.get();
            if (item.status() == Status.PENDING && !item.returnedTotal().equals(returnedTotal)
                    && excess.compareTo(minimum) > 0) {
                Return refreshed = new Return(item.channelId(), returnedTotal, excess, item.provider(), item.consumer(),
                        Status.PENDING, item.attempts(), item.nextAttemptAt(), null, null, null, item.lastError());
                store.update(item, refreshed, now);
                item = refreshed;
            }
        } else {
            if (excess.compareTo(minimum) <= 0) {
                return Optional.empty();
            }
            item = new Return(channel.channelId(), returnedTotal, excess, sender.address(), channel.consumer(),
                    Status.PENDING, 0, now, null, null, null, null);
            store.insert(item, now);
        }
        if (item.nextAttemptAt().isAfter(now)) {
            return Optional.of(item);
        }
        Return before = item;
        Return next;
        try {
            next = item.status() == Status.SENT ? lookAfter(item.tried(), now) : send(item.tried(), now);
        } catch (RpcException e) {
            next = retryLater(latest(before), now, e.getMessage());
        }
        store.update(latest(before), next, now);
        return Optional.of(next);
    }

    /** The row as the store has it now: a send may have written its signed transaction meanwhile. */
    private Return latest(Return item) {
        return store.open(item.channelId()).orElse(item);
    }

    private Return send(Return item, Instant now) {
        TransactionRequest request = TransactionRequest.call(usdc, transferData(item.consumer(), item.amount()));
        CallResult simulated = sender.simulate(request);
        if (!simulated.success()) {
            return retryLater(item, now, "the token refuses the transfer: " + simulated.revertReason());
        }
        Return[] written = {item};
        SendResult result = sender.send(request, (hash, nonce, raw) -> {
            Return signed = written[0].signed(hash, nonce, raw);
            store.update(written[0], signed, now);
            written[0] = signed;
        });
        Return sent = written[0];
        return switch (result) {
            case SendResult.Mined mined -> recorded(sent, mined.txHash());
            case SendResult.NotMined notMined -> sent.with(Status.SENT, now.plus(ClaimExecutor.backoff(settings,
                    sent.attempts())), "no receipt yet");
            case SendResult.TransientFailure failure -> failure.txHash() != null
                    ? sent.with(Status.SENT, now.plus(ClaimExecutor.backoff(settings, sent.attempts())), failure.reason())
                    : sent.unsent(now.plus(ClaimExecutor.backoff(settings, sent.attempts())), failure.reason());
            case SendResult.Reverted reverted -> sent.unsent(now.plus(ClaimExecutor.backoff(settings, sent.attempts())),
                    "transfer " + reverted.txHash() + " reverted: " + reverted.revertReason());
            case SendResult.Refused refused -> sent.unsent(now.plus(ClaimExecutor.backoff(settings, sent.attempts())),
                    refused.reason());
        };
    }

    private Return lookAfter(Return item, Instant now) {
        Optional<TransactionReceipt> receipt = eth.receipt(item.txHash());
        if (receipt.isPresent()) {
            return receipt.get().isStatusOK() ? recorded(item, item.txHash())
                    : item.unsent(now.plus(ClaimExecutor.backoff(settings, item.attempts())),
                    "transfer " + item.txHash() + " reverted");
        }
        if (eth.transaction(item.txHash()).isPresent()) {
            return item.with(Status.SENT, now.plus(ClaimExecutor.backoff(settings, item.attempts())),
                    "waiting for transfer " + item.txHash() + " to be mined");
        }
        if (eth.transactionCount(item.provider(), "latest").compareTo(item.txNonce()) > 0) {
            log.info("transfer {} returning {} on channel {} can no longer land (its nonce was used); signing anew",
                    item.txHash(), item.amount(), item.channelId());
            return item.unsent(now, "nonce " + item.txNonce() + " went to another transaction");
        }
        sender.rebroadcast(item.rawTransaction());
        return item.with(Status.SENT, now.plus(ClaimExecutor.backoff(settings, item.attempts())),
                "sent transfer " + item.txHash() + " again");
    }

    /** Records the mined transfer on the channel (a second recording of it changes nothing). */
    private Return recorded(Return item, String txHash) {
        TransactionReceipt receipt = eth.receipt(txHash).orElseThrow(() ->
                RpcException.transientFailure("eth_getTransactionReceipt", "no receipt for " + txHash, null));
        Log transfer = receipt.getLogs().stream().filter(this::isTransferToConsumer).findFirst()
                .filter(l -> isFrom(l, item.provider()) && isTo(l, item.consumer()))
                .orElseThrow(() -> new IllegalStateException("transfer " + txHash + " has no Transfer log to "
                        + item.consumer()));
        BigInteger amount = Numeric.toBigInt(transfer.getData());
        ChainRef ref = new ChainRef(receipt.getBlockNumber().longValueExact(), receipt.getBlockHash(), txHash,
                transfer.getLogIndex().intValueExact());
        commands.sendAndWait(new RecordExcessReturn(item.channelId(), amount, ref));
        log.info("returned {} to {}, the excess claimed on channel {} ({})", amount, item.consumer(), item.channelId(),
                txHash);
        metrics.claim("returned");
        return item.with(Status.CONFIRMED, clock.instant(), null);
    }

    private boolean isTransferToConsumer(Log entry) {
        return usdc.equalsIgnoreCase(entry.getAddress()) && entry.getTopics().size() == 3
                && TRANSFER_TOPIC.equalsIgnoreCase(entry.getTopics().getFirst());
    }

    private static boolean isFrom(Log entry, String address) {
        return topicAddress(entry.getTopics().get(1)).equalsIgnoreCase(address);
    }

    private static boolean isTo(Log entry, String address) {
        return topicAddress(entry.getTopics().get(2)).equalsIgnoreCase(address);
    }

    private static String topicAddress(String topic) {
        String hex = Numeric.cleanHexPrefix(topic);
        return "0x" + hex.substring(hex.length() - 40);
    }

    private Return retryLater(Return item, Instant now, String error) {
        log.warn("return of {} on channel {} not made yet (attempt {}): {}", item.amount(), item.channelId(),
                item.attempts(), error);
        return item.with(item.status(), now.plus(ClaimExecutor.backoff(settings, item.attempts())), error);
    }

    static String transferData(String to, BigInteger amount) {
        return FunctionEncoder.encode(new Function("transfer", List.of(new Address(to), new Uint256(amount)),
                List.of()));
    }
}
