package io.chanledger.api.ledger.channels.command;

import io.chanledger.api.config.LedgerProperties;
import io.chanledger.domain.channel.AcceptVoucher;
import io.chanledger.domain.channel.RaiseHold;
import io.chanledger.domain.channel.RequestSettlement;
import io.chanledger.domain.channel.SettleRequest;
import io.chanledger.domain.channel.VoucherReceipt;
import java.math.BigInteger;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.springframework.stereotype.Service;

/**
 * The way into the Channel aggregate for the commands of the payment path: a voucher, a paid
 * request's settlement and a streamed request's raised hold. With group commit on (the default)
 * they share the {@link VoucherCommitBatcher}'s commits; otherwise each is sent and committed on
 * its own. Each call returns once its commit has succeeded, and throws what the aggregate refused.
 */
@Service
public class ChannelCommits {

    private final CommandGateway commands;
    /** Null when commits are not grouped. */
    private final VoucherCommitBatcher grouped;
    /** The batcher's machinery for a settlement that writes beside it, also when commits are not grouped. */
    private final VoucherCommitBatcher commits;

    ChannelCommits(CommandGateway commands, VoucherCommitBatcher batcher, LedgerProperties ledger) {
        this.commands = commands;
        this.grouped = ledger.groupCommit() ? batcher : null;
        this.commits = batcher;
    }

    VoucherReceipt accept(AcceptVoucher command) {
        return grouped == null ? commands.sendAndWait(command) : join(grouped.submit(command));
    }

    /** Settles the request a metered voucher paid for at its actual cost. */
    public RequestSettlement settle(SettleRequest command) {
        return grouped == null ? commands.sendAndWait(command) : join(grouped.submit(command));
    }

    /**
     * {@link #settle(SettleRequest)}, running {@code alongside} with the settlement in the very
     * commit that records it: what it writes is durable exactly when the charge is.
     */
    public RequestSettlement settle(SettleRequest command, Consumer<RequestSettlement> alongside) {
        return join(grouped == null ? commits.settleAlone(command, alongside) : grouped.submit(command, alongside));
    }

    /**
     * Raises the hold of the running request a metered voucher paid for, as far as the channel's
     * room allows; answers the hold it now has (zero when it is not running).
     */
    public BigInteger raiseHold(RaiseHold command) {
        return grouped == null ? commands.sendAndWait(command) : join(grouped.submit(command));
    }

    /** The reply's value once it is there; what failed it, thrown as it was. */
    static <T> T join(CompletableFuture<T> reply) {
        try {
            return reply.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            throw e;
        }
    }
}
