package io.chanledger.domain.channel;

import org.axonframework.commandhandling.CommandMessage;
import org.axonframework.modelling.command.AnnotationCommandTargetResolver;
import org.axonframework.modelling.command.CommandTargetResolver;
import org.axonframework.modelling.command.VersionedAggregateIdentifier;

/**
 * Finds the channel a command targets by {@link ChannelCommand#channelId()}. Axon's annotation
 * resolver, which the commands' annotations still serve (tests, other buses), lists the command
 * class's methods and their annotations again for every command it resolves, twice (identifier
 * and version): on the voucher's path that cost more than deciding the voucher. No channel command
 * asks for an expected version.
 */
public final class ChannelCommandTargetResolver implements CommandTargetResolver {

    private final CommandTargetResolver annotations = AnnotationCommandTargetResolver.builder().build();

    @Override
    public VersionedAggregateIdentifier resolveTarget(CommandMessage<?> command) {
        if (command.getPayload() instanceof ChannelCommand channelCommand) {
            return new VersionedAggregateIdentifier(channelCommand.channelId(), null);
        }
        return annotations.resolveTarget(command);
    }
}
