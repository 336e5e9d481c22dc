package io.chanledger.api.ledger.channels.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chanledger.api.ledger.chain.ListenerProperties;
import io.chanledger.api.config.ChainProperties;
import io.chanledger.api.config.LedgerProperties;
import io.chanledger.api.provider.gateway.Agent;
import io.chanledger.api.support.AdminReads;
import io.chanledger.api.support.Channels;
import io.chanledger.api.support.Http;
import io.chanledger.api.support.LedgerIntegrationTest;
import io.chanledger.api.support.TestKeys;
import io.chanledger.testsupport.Devnet;
import io.chanledger.testsupport.DevnetAccounts;
import io.chanledger.testsupport.OpenedChannel;
import io.chanledger.testsupport.RpcProxy;
import io.chanledger.chain.lookup.ContractChannelLookup;
import io.chanledger.chain.rpc.EthApi;
import io.chanledger.chain.rpc.JsonRpcClient;
import io.chanledger.chain.rpc.RetryPolicy;
import io.chanledger.chain.rpc.RpcException;
import io.chanledger.domain.channel.OnChainChannel;
import io.chanledger.domain.channel.ChannelLookup;
import io.chanledger.domain.channel.SignedVoucher;
import io.chanledger.domain.channel.VoucherReceipt;
import io.chanledger.domain.channel.VoucherRejectedException;
import io.chanledger.domain.channel.VoucherRejection;
import io.chanledger.domain.eip712.DigestSigner;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.awaitility.Awaitility;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.web3j.crypto.Credentials;
import org.web3j.crypto.Hash;
import org.web3j.utils.Numeric;

/**
 * Vouchers for channels the ledger has not recorded cost node calls, so their look-ups are bounded:
 * "not on chain" is remembered briefly, concurrent look-ups of one id make one, and budgets per
 * client and in total refuse the rest before the node is asked. Node calls are counted at a proxy
 * in front of the devnet (with its faults off) for look-ups of the test's own; the service's own
 * budgets are reached through HTTP by a client of the test's own (X-Forwarded-For).
 */
class ChannelLookupBudgetTest extends LedgerIntegrationTest {

    private static final Duration NOT_FOUND_TTL = Duration.ofSeconds(2);
    private static final DigestSigner CONSUMER = TestKeys.wallet("lookup-budget-consumer");
    private static final AtomicInteger CLIENTS = new AtomicInteger();

    @Autowired
    CommandGateway commands;
    @Autowired
    VoucherCommitBatcher batcher;
    @Autowired
    LedgerProperties ledger;
    @Autowired
    ChainProperties chain;
    @Autowired
    EarlierVouchers earlierVouchers;
    @Autowired
    ObjectMapper json;

    private final RpcProxy node = RpcProxy.failingEveryOther(devnet().rpcUrl(), Duration.ofSeconds(1));
    private final AtomicLong nanos = new AtomicLong(System.nanoTime());

    {
        node.faulty(false);
    }

    @AfterEach
    void closeProxy() {
        node.close();
    }

    private static String newClient() {
        int n = CLIENTS.incrementAndGet();
        return "198.51." + (n / 250) + "." + (1 + n % 250);
    }

    private static ListenerProperties.Lookup budgets(int perClient, int total) {
        return new ListenerProperties.Lookup(NOT_FOUND_TTL, 1_000, null,
                new ListenerProperties.PerClient(perClient, Duration.ofMinutes(10)),
                new ListenerProperties.Total(total, Duration.ofMinutes(10)), 1_000);
    }

    /** Look-ups of the test's own, through the counting proxy, on a clock the test moves. */
    private FreshChannelLookups lookupsThroughProxy(ListenerProperties.Lookup settings) {
        JsonRpcClient client = new JsonRpcClient(node.url(), Duration.ofSeconds(5), RetryPolicy.none());
        return new FreshChannelLookups(new ContractChannelLookup(new EthApi(client), devnet().channelAddress()),
                settings, nanos::get, new SimpleMeterRegistry());
    }

    @Test
    void anUnknownChannelCostsOneBlockNumberAndOneCallAndIsRememberedBriefly() {
        FreshChannelLookups lookups = lookupsThroughProxy(budgets(100, 100));
        String id = Channels.randomChannelId();

        assertThat(lookups.find(id, "10.0.0.1")).isEmpty();
        assertThat(node.requests()).as("eth_blockNumber and getChannel, asked once").isEqualTo(2);

        assertThat(lookups.find(id, "10.0.0.2")).isEmpty();
        assertThat(lookups.find(id.toUpperCase().replace("0X", "0x"), "10.0.0.3")).isEmpty();
        assertThat(node.requests()).as("remembered, whoever asks").isEqualTo(2);

        nanos.addAndGet(NOT_FOUND_TTL.toNanos());
        assertThat(lookups.find(id, "10.0.0.1")).isEmpty();
        assertThat(node.requests()).as("asked again once the answer expired").isEqualTo(4);
    }

    @Test
    void aChannelOpenedAMomentAfterItsNotFoundAnswerIsFoundOnceThatAnswerExpires() {
        Devnet devnet = devnet();
        Credentials consumer = DevnetAccounts.labelled("lookup-budget-opener-" + UUID.randomUUID());
        String provider = DevnetAccounts.anvil(6).getAddress();
        BigInteger deposit = BigInteger.valueOf(1_000_000);
        devnet.setBalance(consumer.getAddress(), Devnet.GAS_MONEY);
        devnet.mint(consumer.getAddress(), deposit);
        devnet.approve(consumer, devnet.channelAddress(), deposit);
        long openedAt = devnet.latestBlockTimestamp().longValueExact() + 3;
        // the contract's id: keccak256(consumer, provider, block.timestamp, the consumer's first nonce)
        String id = predictedChannelId(consumer.getAddress(), provider, openedAt);
        FreshChannelLookups lookups = lookupsThroughProxy(budgets(100, 100));

        assertThat(lookups.find(id, "10.0.1.1")).isEmpty();
        devnet.setNextBlockTimestamp(openedAt);
        OpenedChannel opened = devnet.open(consumer, provider, deposit, 3_600);
        assertThat(opened.channelId()).as("the id predicted before the open").isEqualTo(id);

        assertThat(lookups.find(id, "10.0.1.1")).as("still remembered as not on chain").isEmpty();
        nanos.addAndGet(NOT_FOUND_TTL.toNanos());
        Optional<OnChainChannel> found = lookups.find(id, "10.0.1.1");

        assertThat(found).hasValueSatisfying(channel -> {
            assertThat(channel.consumer()).isEqualToIgnoringCase(consumer.getAddress());
            assertThat(channel.deposit()).isEqualTo(deposit);
        });
        assertThat(node.requests()).isEqualTo(4);
    }

    @Test
    void theTotalBudgetRefusesTheNextLookupBeforeTheNodeIsAsked() {
        FreshChannelLookups lookups = lookupsThroughProxy(budgets(100, 3));
        for (int i = 0; i < 3; i++) {
            assertThat(lookups.find(Channels.randomChannelId(), "10.0.2." + i)).isEmpty();
        }
        assertThat(node.requests()).isEqualTo(6);

        assertThatThrownBy(() -> lookups.find(Channels.randomChannelId(), "10.0.2.9"))
                .isInstanceOfSatisfying(LookupRefusedException.class, refused -> {
                    assertThat(refused.code()).isEqualTo("lookup_rate_limited");
                    assertThat(refused.retryAfter()).isPositive();
                });
        assertThat(node.requests()).as("the refused look-up asked nothing").isEqualTo(6);
    }

    @Test
    void aKnownChannelsVoucherIsAcceptedWhileTheLookupBudgetIsSpent() {
        FreshChannelLookups lookups = lookupsThroughProxy(budgets(1, 1));
        VoucherAdmission admission = new VoucherAdmission(new ChannelCommits(commands, batcher, ledger), chain, lookups,
                earlierVouchers, Clock.systemUTC(), new SimpleMeterRegistry());
        String known = Channels.open(commands, CONSUMER, TestKeys.wallet("lookup-budget-provider"),
                BigInteger.valueOf(5_000_000), Instant.now().getEpochSecond() + 86_400);
        String unknown = Channels.randomChannelId();
        String another = Channels.randomChannelId();
        assertThatThrownBy(() -> admission.admit(voucher(unknown, 10, 1), null))
                .isInstanceOfSatisfying(VoucherRejectedException.class,
                        rejected -> assertThat(rejected.reason()).isEqualTo(VoucherRejection.CHANNEL_NOT_FOUND));
        assertThatThrownBy(() -> admission.admit(voucher(another, 10, 1), null))
                .isInstanceOf(LookupRefusedException.class);
        long spentAt = node.requests();

        VoucherReceipt receipt = admission.admit(voucher(known, 1_000, 1), null);

        assertThat(receipt.duplicate()).isFalse();
        assertThat(receipt.amount()).isEqualTo(BigInteger.valueOf(1_000));
        assertThat(node.requests()).as("a known channel asks the node nothing").isEqualTo(spentAt).isEqualTo(2);
        JsonNode state = AdminReads.get(baseUrl() + "/api/channels/" + known).json();
        assertThat(state.path("highestVoucher").path("amount").asText()).isEqualTo("1000");
    }

    @Test
    void concurrentLookupsOfOneChannelMakeOneCallAndShareItsAnswer() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger calls = new AtomicInteger();
        OnChainChannel onChain = new OnChainChannel("0x" + "11".repeat(20), "0x" + "22".repeat(20),
                BigInteger.TEN, BigInteger.ZERO, 4_000_000_000L, 7);
        ChannelLookup slowNode = id -> {
            calls.incrementAndGet();
            await(release);
            return Optional.of(onChain);
        };
        FreshChannelLookups lookups = new FreshChannelLookups(slowNode, budgets(1, 1), nanos::get,
                new SimpleMeterRegistry());
        String id = Channels.randomChannelId();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<Optional<OnChainChannel>>> answers = new ArrayList<>();
            answers.add(pool.submit(() -> lookups.find(id, "10.0.3.0")));
            Awaitility.await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(1)).until(() -> calls.get() > 0);
            for (int i = 1; i < 8; i++) {
                String client = "10.0.3." + i;
                answers.add(pool.submit(() -> lookups.find(id, client)));
            }
            Thread.sleep(100);
            release.countDown();

            for (Future<Optional<OnChainChannel>> answer : answers) {
                assertThat(answer.get(10, TimeUnit.SECONDS)).contains(onChain);
            }
            assertThat(calls).as("one call, although the budgets allow one look-up in all").hasValue(1);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aNodeFailureIsNotRememberedAsNotFound() {
        AtomicInteger calls = new AtomicInteger();
        ChannelLookup failingOnce = id -> {
            if (calls.incrementAndGet() == 1) {
                throw RpcException.transientFailure("eth_call", "the node is down", null);
            }
            return Optional.empty();
        };
        FreshChannelLookups lookups = new FreshChannelLookups(failingOnce, budgets(10, 10), nanos::get,
                new SimpleMeterRegistry());
        String id = Channels.randomChannelId();

        assertThatThrownBy(() -> lookups.find(id, "10.0.4.1")).isInstanceOf(RpcException.class);
        assertThat(lookups.find(id, "10.0.4.1")).isEmpty();
        assertThat(lookups.find(id, "10.0.4.1")).isEmpty();

        assertThat(calls).as("asked again after the failure, then remembered").hasValue(2);
    }

    /** Through HTTP, on the service's own budgets (30 per client in the tests' settings). */
    @Test
    void aClientPastItsBudgetIsRefusedInEachEndpointsShapeWhileItsKnownChannelStillPays() {
        String client = newClient();
        Http.Reply refused = null;
        int sent = 0;
        while (refused == null && sent < 40) {
            String unknown = Channels.randomChannelId();
            Http.Reply reply = postVoucher(client, unknown, Channels.voucherJson(CONSUMER, unknown, 10, 1));
            sent++;
            if (reply.status() == 429) {
                refused = reply;
            } else {
                assertThat(reply.status()).as(reply.body()).isEqualTo(404);
            }
        }
        assertThat(refused).as("refused within the budget of 30 (one more every 10 s)").isNotNull();
        assertThat(sent).isBetween(31, 33);
        assertThat(refused.contentType()).startsWith("application/problem+json");
        assertThat(refused.json().path("code").asText()).isEqualTo("lookup_rate_limited");
        assertThat(refused.json().path("status").asInt()).isEqualTo(429);
        assertThat(refused.json().path("error").asText()).isNotBlank();
        assertThat(header(refused, "Retry-After")).isNotNull();

        String known = Channels.open(commands, CONSUMER, TestKeys.wallet("lookup-budget-provider"),
                BigInteger.valueOf(5_000_000), Instant.now().getEpochSecond() + 86_400);
        Http.Reply paid = postVoucher(client, known, Channels.voucherJson(CONSUMER, known, 2_000, 1));
        assertThat(paid.status()).as(paid.body()).isEqualTo(200);
        assertThat(AdminReads.get(baseUrl() + "/api/channels/" + known).json()
                .path("highestVoucher").path("amount").asText()).isEqualTo("2000");

        String unknown = Channels.randomChannelId();
        Http.Reply gateway = Http.send(HttpRequest.newBuilder(URI.create(baseUrl() + "/v1/chat/completions"))
                .header("Content-Type", "application/json")
                .header("X-Forwarded-For", client)
                .header("X-CHAN-Voucher", Channels.voucherJson(CONSUMER, unknown, 10_000, 1))
                .POST(HttpRequest.BodyPublishers.ofString(Agent.chatBody("echo-1", "hello", null, false))));
        assertThat(gateway.status()).as(gateway.body()).isEqualTo(429);
        assertThat(header(gateway, "X-CHAN-Error")).isEqualTo("lookup_rate_limited");
        assertThat(gateway.json().path("error").path("code").asText()).isEqualTo("lookup_rate_limited");
        assertThat(header(gateway, "Retry-After")).isNotNull();

        String someoneElse = newClient();
        String theirs = Channels.randomChannelId();
        assertThat(postVoucher(someoneElse, theirs, Channels.voucherJson(CONSUMER, theirs, 10, 1)).status())
                .as("another client still has its budget").isEqualTo(404);
    }

    private Http.Reply postVoucher(String client, String channelId, String voucher) {
        return Http.send(HttpRequest.newBuilder(URI.create(baseUrl() + "/api/channels/" + channelId + "/vouchers"))
                .header("Content-Type", "application/json")
                .header("X-Forwarded-For", "203.0.113.7, " + client)
                .POST(HttpRequest.BodyPublishers.ofString(voucher)));
    }

    private SignedVoucher voucher(String channelId, long amount, long nonce) {
        try {
            return VoucherJson.parse(json.readTree(Channels.voucherJson(CONSUMER, channelId, amount, nonce)), channelId);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String header(Http.Reply reply, String name) {
        return reply.raw().headers().firstValue(name).orElse(null);
    }

    private static String predictedChannelId(String consumer, String provider, long timestamp) {
        ByteBuffer packed = ByteBuffer.allocate(20 + 20 + 32 + 32);
        packed.put(Numeric.hexStringToByteArray(consumer));
        packed.put(Numeric.hexStringToByteArray(provider));
        packed.put(Numeric.toBytesPadded(BigInteger.valueOf(timestamp), 32));
        packed.put(new byte[32]);
        return Numeric.toHexString(Hash.sha3(packed.array()));
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
