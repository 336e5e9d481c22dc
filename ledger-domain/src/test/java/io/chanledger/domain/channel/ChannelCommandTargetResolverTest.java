package io.chanledger.domain.channel;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.List;
import org.axonframework.commandhandling.CommandHandler;
import org.axonframework.commandhandling.GenericCommandMessage;
import org.axonframework.modelling.command.AnnotationCommandTargetResolver;
import org.axonframework.modelling.command.TargetAggregateIdentifier;
import org.axonframework.modelling.command.VersionedAggregateIdentifier;
import org.junit.jupiter.api.Test;

class ChannelCommandTargetResolverTest {

    private static final String CHANNEL = "0x" + "ab".repeat(32);

    private final ChannelCommandTargetResolver resolver = new ChannelCommandTargetResolver();

    @Test
    void aChannelCommandTargetsItsChannelWithNoExpectedVersion() {
        List<ChannelCommand> commands = List.of(
                new SettleRequest(CHANNEL, BigInteger.ONE, BigInteger.TEN, 1_000L),
                new RaiseHold(CHANNEL, BigInteger.TWO, BigInteger.TEN, 1_000L),
                new ExpireChannel(CHANNEL, 1_000L, 7L));
        for (ChannelCommand command : commands) {
            VersionedAggregateIdentifier target = resolver.resolveTarget(GenericCommandMessage.asCommandMessage(command));
            VersionedAggregateIdentifier byAnnotations = AnnotationCommandTargetResolver.builder().build()
                    .resolveTarget(GenericCommandMessage.asCommandMessage(command));
            assertThat(target.getIdentifier()).isEqualTo(CHANNEL);
            assertThat(target.getVersion()).isNull();
            assertThat(target).isEqualTo(byAnnotations);
        }
    }

    @Test
    void everyCommandTheChannelHandlesIsAChannelCommand() {
        List<Class<?>> handled = Arrays.stream(ChannelAggregate.class.getDeclaredMethods())
                .filter(method -> method.isAnnotationPresent(CommandHandler.class))
                .<Class<?>>map(method -> method.getParameterTypes()[0])
                .toList();
        assertThat(handled).isNotEmpty().allMatch(ChannelCommand.class::isAssignableFrom);
    }

    @Test
    void anyOtherCommandIsResolvedByItsAnnotations() {
        record Other(@TargetAggregateIdentifier String id) {
        }
        VersionedAggregateIdentifier target = resolver.resolveTarget(
                GenericCommandMessage.asCommandMessage(new Other("provider-1")));
        assertThat(target.getIdentifier()).isEqualTo("provider-1");
    }
}
