package io.chanledger.api.ledger.explorer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.chanledger.api.support.Http;
import io.chanledger.api.support.LedgerIntegrationTest;
import io.chanledger.testsupport.Devnet;
import io.chanledger.testsupport.OpenedChannel;
import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.web3j.crypto.Credentials;
import org.web3j.crypto.Keys;

/**
 * GET /api/explorer/summary through HTTP: a channel opened, claimed and another opened and closed
 * on the devnet move the totals by exactly their amounts, show up in the recent activity with
 * their chain figures, and put their provider among the busiest; nothing off-chain is in it.
 */
class ExplorerSummaryTest extends LedgerIntegrationTest {

    private static final BigInteger DEPOSIT = BigInteger.valueOf(5_000_000);
    private static final BigInteger CLAIM = BigInteger.valueOf(1_250_000);
    private static final BigInteger SECOND_DEPOSIT = BigInteger.valueOf(700_000);
    private static final BigInteger SECOND_CLAIM = BigInteger.valueOf(200_000);

    @Test
    void theSummaryShowsTheNetworksChannelsFromTheChain() {
        Devnet devnet = devnet();
        // a whale of a claim, so that this provider leads whatever earlier tests claimed
        BigInteger whaleClaim = BigInteger.valueOf(400_000_000_000L);
        Credentials consumer = wallet(devnet);
        Credentials provider = wallet(devnet);
        JsonNode before = summary();

        OpenedChannel claimedChannel = devnet.fundAndOpen(consumer, provider.getAddress(), DEPOSIT.add(whaleClaim), 86_400);
        BigInteger payout = CLAIM.add(whaleClaim);
        BigInteger fee = payout.multiply(devnet.feeBps()).divide(BigInteger.valueOf(10_000));
        devnet.claim(provider, claimedChannel.channelId(), payout, BigInteger.ONE,
                devnet.signVoucher(consumer, claimedChannel.channelId(), payout, BigInteger.ONE));

        OpenedChannel closedChannel = devnet.fundAndOpen(consumer, provider.getAddress(), SECOND_DEPOSIT, 86_400);
        BigInteger secondFee = SECOND_CLAIM.multiply(devnet.feeBps()).divide(BigInteger.valueOf(10_000));
        devnet.cooperativeClose(consumer, closedChannel.channelId(), SECOND_CLAIM,
                devnet.signCloseAuthorization(provider, closedChannel.channelId(), SECOND_CLAIM));

        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250)).untilAsserted(() -> {
            JsonNode after = summary();
            JsonNode totals = after.path("totals");
            JsonNode was = before.path("totals");
            assertThat(totals.path("channels").asLong()).isEqualTo(was.path("channels").asLong() + 2);
            assertThat(totals.path("openChannels").asLong()).isEqualTo(was.path("openChannels").asLong() + 1);
            assertThat(amount(totals, "locked")).isEqualTo(amount(was, "locked").add(DEPOSIT.add(whaleClaim).subtract(payout)));
            assertThat(amount(totals, "claimed")).isEqualTo(amount(was, "claimed").add(payout).add(SECOND_CLAIM));
            assertThat(amount(totals, "feesPaid")).isEqualTo(amount(was, "feesPaid").add(fee).add(secondFee));

            JsonNode busiest = after.path("busiestProviders").get(0);
            assertThat(busiest.path("provider").asText()).isEqualToIgnoringCase(provider.getAddress());
            assertThat(busiest.path("channels").asLong()).isEqualTo(2);
            assertThat(amount(busiest, "claimed")).isEqualTo(payout.add(SECOND_CLAIM));
            assertThat(amount(busiest, "feesPaid")).isEqualTo(fee.add(secondFee));

            List<JsonNode> activity = new ArrayList<>();
            after.path("recentActivity").forEach(activity::add);
            JsonNode closed = activity.get(0);
            assertThat(closed.path("kind").asText()).isEqualTo("closed");
            assertThat(closed.path("channelId").asText()).isEqualTo(closedChannel.channelId());
            assertThat(amount(closed, "refund")).isEqualTo(SECOND_DEPOSIT.subtract(SECOND_CLAIM));
            assertThat(closed.path("closeKind").asText()).isEqualTo("cooperative");
            assertThat(closed.path("provider").asText()).isEqualToIgnoringCase(provider.getAddress());
            assertThat(closed.path("chainRef").path("txHash").asText()).matches("0x[0-9a-f]{64}");

            JsonNode claimed = activity.stream().filter(a -> a.path("kind").asText().equals("claimed")
                    && a.path("channelId").asText().equals(claimedChannel.channelId())).findFirst().orElseThrow();
            assertThat(amount(claimed, "payout")).isEqualTo(payout);
            assertThat(amount(claimed, "fee")).isEqualTo(fee);
            assertThat(amount(claimed, "totalClaimed")).isEqualTo(payout);
            assertThat(claimed.path("consumer").asText()).isEqualToIgnoringCase(consumer.getAddress());

            JsonNode opened = activity.stream().filter(a -> a.path("kind").asText().equals("opened")
                    && a.path("channelId").asText().equals(claimedChannel.channelId())).findFirst().orElseThrow();
            assertThat(amount(opened, "deposit")).isEqualTo(DEPOSIT.add(whaleClaim));
            assertThat(opened.path("expiryEpochSeconds").asLong()).isEqualTo(claimedChannel.expiry().longValueExact());
        });
    }

    @Test
    void theSummaryIsPublicAndHoldsNoOffChainFigure() {
        Http.Reply reply = Http.get(baseUrl() + "/api/explorer/summary");

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.raw().headers().firstValue("Cache-Control")).hasValueSatisfying(v -> assertThat(v).contains("public"));
        assertThat(reply.body()).doesNotContain("voucher", "nonce", "signature", "charged", "held", "hold",
                "claimable", "returned");
        assertThat(reply.json().path("recentActivity").size()).isLessThanOrEqualTo(ExplorerController.RECENT_ACTIVITY);
        reply.json().path("recentActivity").forEach(a -> assertThat(a.path("kind").asText()).isIn("opened", "claimed", "closed"));
    }

    private JsonNode summary() {
        Http.Reply reply = Http.get(baseUrl() + "/api/explorer/summary");
        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        return reply.json();
    }

    private static Credentials wallet(Devnet devnet) {
        Credentials wallet;
        try {
            wallet = Credentials.create(Keys.createEcKeyPair());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        devnet.setBalance(wallet.getAddress(), Devnet.GAS_MONEY);
        return wallet;
    }

    private static BigInteger amount(JsonNode node, String field) {
        assertThat(node.path(field).isTextual()).as("%s is a decimal string: %s", field, node).isTrue();
        return new BigInteger(node.path(field).asText());
    }
}
