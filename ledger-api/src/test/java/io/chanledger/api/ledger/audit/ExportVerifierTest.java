package io.chanledger.api.ledger.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.chanledger.api.support.Channels;
import io.chanledger.api.support.TestKeys;
import io.chanledger.domain.channel.ChannelClaimed;
import io.chanledger.domain.channel.ChannelClosed;
import io.chanledger.domain.channel.ChannelEvent;
import io.chanledger.domain.channel.ChannelExpired;
import io.chanledger.domain.channel.ChannelOpenConfirmed;
import io.chanledger.domain.channel.ChannelOpened;
import io.chanledger.domain.channel.CloseAuthorized;
import io.chanledger.domain.channel.CloseKind;
import io.chanledger.domain.channel.ExcessReturned;
import io.chanledger.domain.channel.HoldRaised;
import io.chanledger.domain.channel.RequestSettled;
import io.chanledger.domain.channel.VoucherAccepted;
import io.chanledger.domain.eip712.DigestSigner;
import io.chanledger.domain.eip712.Hex;
import io.chanledger.storage.EventStoreMapper;
import java.io.BufferedReader;
import java.io.StringReader;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The verifier reads every channel event as the event store's mapper wrote it, through the one
 * decoder, and checks each type; no database, the export written here from the event records.
 */
class ExportVerifierTest {

    private static final String CONTRACT = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
    private static final DigestSigner CONSUMER = TestKeys.wallet("verifier-consumer");
    private static final DigestSigner PROVIDER = TestKeys.wallet("verifier-provider");
    private static final ObjectMapper EVENT_MAPPER = EventStoreMapper.create();
    private static final long DEPOSIT = 1_000_000;

    private final String channelId = Channels.randomChannelId();

    /**
     * A channel with one event of every type, in an order the auditor accepts: claimed 200,000
     * of vouchers up to 200,000, charged 60,000, so that 140,000 may be returned.
     */
    private List<ChannelEvent> historyReturning(long returned) {
        return List.of(
                new ChannelOpened(channelId, CONSUMER.address(), PROVIDER.address(), uint(DEPOSIT), 2_000_000_000L,
                        Channels.nextChainRef(), true, BigInteger.ZERO),
                new ChannelOpenConfirmed(channelId, CONSUMER.address(), PROVIDER.address(), uint(DEPOSIT),
                        2_000_000_000L, Channels.nextChainRef()),
                new VoucherAccepted(channelId, uint(100_000), uint(1), voucherSignature(100_000, 1), uint(100_000),
                        1_700_000_000L, null, null, null),
                new VoucherAccepted(channelId, uint(200_000), uint(2), voucherSignature(200_000, 2), uint(100_000),
                        1_700_000_001L, uint(50_000), 1_700_000_100L, BigInteger.ZERO),
                new HoldRaised(channelId, uint(2), uint(80_000), 1_700_000_002L),
                new RequestSettled(channelId, uint(2), uint(60_000), uint(60_000), uint(60_000), 1_700_000_003L),
                new CloseAuthorized(channelId, uint(200_000), Hex.encode(PROVIDER.sign(
                        Channels.TYPED_DATA.closeAuthorizationDigest(Hex.decode(channelId), uint(200_000))))),
                new ChannelClaimed(channelId, PROVIDER.address(), uint(200_000), uint(4_000), uint(200_000),
                        Channels.nextChainRef()),
                new ChannelExpired(channelId, 2_000_000_000L, 2_000_000_001L, 5_000),
                new ExcessReturned(channelId, CONSUMER.address(), uint(returned), Channels.nextChainRef()),
                new ChannelClosed(channelId, uint(DEPOSIT - 200_000), CloseKind.AFTER_EXPIRY, Channels.nextChainRef()));
    }

    @Test
    void aHistoryWithEveryChannelEventVerifiesClean() throws Exception {
        List<ChannelEvent> history = historyReturning(140_000);

        ExportVerifier.Report report = verify(export(history));

        assertThat(history.stream().map(Object::getClass).collect(Collectors.toSet()))
                .as("the history holds every channel event type").isEqualTo(Set.copyOf(ChannelEvent.TYPES));
        assertThat(report.findings()).isEmpty();
        assertThat(report.channelEvents()).isEqualTo(history.size());
        assertThat(report.signatures()).as("two vouchers and the close authorization").isEqualTo(3);
    }

    @Test
    void aReturnAboveWhatTheChainPaidOverTheChargedTotalIsFound() throws Exception {
        List<String> lines = export(historyReturning(140_001));

        ExportVerifier.Report report = verify(lines);

        assertThat(report.findings()).singleElement().satisfies(finding -> {
            assertThat(finding.code()).isEqualTo("return_above_excess");
            assertThat(lines.get((int) finding.line() - 1)).contains("\"type\":\"ExcessReturned\"");
        });
    }

    @Test
    void aPayloadOutsideTheFastPathsFormReadsAsTheMapperReadsIt() throws Exception {
        List<String> lines = export(historyReturning(140_000));
        int voucher = indexOf(lines, "\"amount\":\"200000\"");
        // a number where the event store writes a decimal string: the decoder hands it to the mapper
        lines.set(voucher, lines.get(voucher).replace("\"amount\":\"200000\"", "\"amount\":200000"));

        assertThat(verify(lines).findings()).isEmpty();

        lines.set(voucher, lines.get(voucher).replace("\"amount\":200000", "\"amount\":210000"));
        assertThat(verify(lines).findings()).extracting(Finding::code, Finding::line)
                .containsExactlyInAnyOrder(tuple("voucher_signature_invalid", voucher + 1L),
                        tuple("voucher_increment_mismatch", voucher + 1L));
    }

    @Test
    void anEventWithoutAFieldItsTypeCarriesIsMalformed() throws Exception {
        List<String> lines = export(historyReturning(140_000));
        int claim = indexOf(lines, "\"type\":\"ChannelClaimed\"");
        lines.set(claim, lines.get(claim).replace("\"payout\":\"200000\",", ""));

        ExportVerifier.Report report = verify(lines);

        assertThat(report.findings()).anySatisfy(finding -> {
            assertThat(finding.code()).isEqualTo("malformed_event");
            assertThat(finding.line()).isEqualTo(claim + 1L);
            assertThat(finding.detail()).contains("payout");
        });
    }

    private List<String> export(List<ChannelEvent> history) throws Exception {
        List<String> lines = new ArrayList<>();
        for (int sequence = 0; sequence < history.size(); sequence++) {
            ChannelEvent event = history.get(sequence);
            lines.add("{\"globalIndex\":" + (100 + sequence) + ",\"type\":\"" + event.getClass().getSimpleName()
                    + "\",\"aggregateId\":\"" + channelId + "\",\"sequence\":" + sequence
                    + ",\"timestamp\":\"2024-01-01T00:00:00Z\",\"payloadType\":\"" + event.getClass().getName()
                    + "\",\"payload\":" + EVENT_MAPPER.writeValueAsString(event) + "}");
        }
        return lines;
    }

    private static ExportVerifier.Report verify(List<String> lines) throws Exception {
        return new ExportVerifier(137, CONTRACT, 200, EVENT_MAPPER)
                .verify(new BufferedReader(new StringReader(String.join("\n", lines))), null);
    }

    private static int indexOf(List<String> lines, String contains) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains(contains)) {
                return i;
            }
        }
        throw new AssertionError("no line with " + contains);
    }

    private String voucherSignature(long amount, long nonce) {
        return Channels.sign(CONSUMER, channelId, uint(amount), uint(nonce));
    }

    private static BigInteger uint(long value) {
        return BigInteger.valueOf(value);
    }
}
