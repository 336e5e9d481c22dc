package io.chanledger.api.provider.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.chanledger.api.ledger.audit.AuditCli;
import io.chanledger.api.ledger.channels.command.ChannelHistory;
import io.chanledger.api.provider.ProviderIdentity;
import io.chanledger.api.support.ChannelStates;
import io.chanledger.api.support.Http;
import io.chanledger.api.support.LedgerIntegrationTest;
import io.chanledger.domain.channel.ChannelStatus;
import io.chanledger.domain.eip712.Hex;
import java.math.BigInteger;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;

/**
 * A channel served through the gateway leaves more in the ledger than vouchers and chain facts:
 * every paid request is settled ({@code RequestSettled}, which takes a place in the channel's
 * sequence), and a metered voucher may repeat the highest amount. Its export verifies clean.
 */
class GatewayChannelAuditTest extends LedgerIntegrationTest {

    private static final BigInteger BUFFER = BigInteger.valueOf(20_000);

    @Autowired
    ProviderIdentity identity;
    @Autowired
    PriceList prices;
    @Autowired
    ChannelHistory history;
    @Value("${spring.datasource.url}")
    String databaseUrl;
    @TempDir
    Path dir;

    @Test
    void theExportOfAChannelServedThroughTheGatewayVerifiesWithoutFindings() throws Exception {
        Agent agent = Agent.create(devnet(), baseUrl());
        agent.open(identity.address(), BigInteger.valueOf(5_000_000), 86_400);
        ChannelStates.awaitState(history, agent.channelId, s -> true, "the ledger to record the channel");
        BigInteger total = BigInteger.ZERO;
        for (String prompt : List.of("first question", "second question")) {
            BigInteger voucher = agent.authorise(total.add(GatewayPrices.hold(prices, "echo-1", prompt, null))
                    .add(BUFFER));
            Http.Reply reply = agent.chat(agent.nextVoucher(voucher), Agent.chatBody("echo-1", prompt, null, false));
            assertThat(reply.status()).as(reply.body()).isEqualTo(200);
            total = total.add(GatewayPrices.cost(prices, "echo-1", prompt, GatewayPrices.ECHO_ANSWER_TOKENS));
        }
        Http.Reply sameAmount = agent.chat(agent.nextVoucher(agent.authorised),
                Agent.chatBody("echo-1", "the buffer still covers this one", null, false));
        assertThat(sameAmount.status()).as(sameAmount.body()).isEqualTo(200);
        // a streamed answer longer than the output allowance held up front: its hold is raised
        String longPrompt = "please repeat these words back to me one by one ".repeat(20);
        Http.Reply streamed = agent.chat(agent.nextVoucher(agent.authorise(agent.authorised.add(BUFFER))),
                Agent.chatBody("echo-1", longPrompt, null, true));
        assertThat(streamed.status()).as(streamed.body()).isEqualTo(200);
        Http.Reply close = Http.postJson(baseUrl() + "/v1/close-channel", "{\"channelId\":\"" + agent.channelId + "\"}");
        assertThat(close.status()).as(close.body()).isEqualTo(200);
        BigInteger finalAmount = new BigInteger(close.json().path("finalAmount").asText());
        devnet().cooperativeClose(agent.wallet, agent.channelId, finalAmount,
                Hex.decode(close.json().path("signature").asText()));
        ChannelStates.awaitState(history, agent.channelId, s -> s.status() == ChannelStatus.CLOSED,
                "the listener to record the cooperative close");

        List<String> export = export(agent.channelId);
        assertThat(export).filteredOn(line -> line.contains("\"type\":\"RequestSettled\"")).hasSize(4);
        assertThat(export).anyMatch(line -> line.contains("\"type\":\"HoldRaised\""));
        assertThat(export).anyMatch(line -> line.contains("\"type\":\"VoucherAccepted\"")
                && line.contains("\"increment\":\"0\""));
        AuditCli.Result clean = verify(export);

        assertThat(clean.status()).as(clean.out()).isZero();
        assertThat(clean.out()).contains("OK: no findings").contains("5 signatures checked");

        int settled = lastIndexOf(export, "RequestSettled");
        List<String> overcharged = new ArrayList<>(export);
        String line = overcharged.get(settled);
        String chargedTotal = line.replaceAll(".*\"chargedTotal\":\"(\\d+)\".*", "$1");
        overcharged.set(settled, line.replace("\"chargedTotal\":\"" + chargedTotal + "\"",
                "\"chargedTotal\":\"" + new BigInteger(chargedTotal).add(BigInteger.ONE) + "\""));
        AuditCli.Result tampered = verify(overcharged);

        assertThat(tampered.status()).as(tampered.out()).isEqualTo(1);
        assertThat(tampered.out()).contains("line " + (settled + 1) + ",").contains("charge_total_mismatch")
                .doesNotContain("sequence_gap");
    }

    private List<String> export(String channelId) throws Exception {
        return AuditCli.exportChannel(dir, databaseUrl, channelId);
    }

    private AuditCli.Result verify(List<String> lines) throws Exception {
        return AuditCli.verify(dir, lines, devnet().channelAddress());
    }

    private static int lastIndexOf(List<String> export, String type) {
        for (int i = export.size() - 1; i >= 0; i--) {
            if (export.get(i).contains("\"type\":\"" + type + "\"")) {
                return i;
            }
        }
        throw new AssertionError("no " + type + " line");
    }
}
