package io.chanledger.chain.lookup;

import static org.assertj.core.api.Assertions.assertThat;

import io.chanledger.testsupport.Devnet;
import io.chanledger.testsupport.DevnetAccounts;
import io.chanledger.testsupport.OpenedChannel;
import io.chanledger.testsupport.RpcProxy;
import io.chanledger.chain.rpc.EthApi;
import io.chanledger.chain.rpc.JsonRpcClient;
import io.chanledger.chain.rpc.RetryPolicy;
import io.chanledger.domain.channel.OnChainChannel;
import java.math.BigInteger;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.web3j.abi.FunctionEncoder;
import org.web3j.abi.TypeEncoder;
import org.web3j.abi.datatypes.Address;
import org.web3j.abi.datatypes.Function;
import org.web3j.abi.datatypes.StaticStruct;
import org.web3j.abi.datatypes.generated.Bytes32;
import org.web3j.abi.datatypes.generated.Uint256;
import org.web3j.utils.Numeric;

class ContractChannelLookupTest {

    private static final Devnet DEVNET = Devnet.shared();

    private final JsonRpcClient client = new JsonRpcClient(DEVNET.rpcUrl(), Duration.ofSeconds(5), RetryPolicy.defaults());
    private final ContractChannelLookup lookup = new ContractChannelLookup(new EthApi(client), DEVNET.channelAddress());

    @Test
    void readsAnOpenChannelAtTheLatestBlock() {
        OpenedChannel channel = DEVNET.fundAndOpen(DevnetAccounts.anvil(5), DevnetAccounts.anvil(6).getAddress(),
                BigInteger.valueOf(2_500_000), 3_600);

        OnChainChannel found = lookup.find(channel.channelId().toUpperCase().replace("0X", "0x")).orElseThrow();

        assertThat(found.consumer()).isEqualTo(DevnetAccounts.anvil(5).getAddress());
        assertThat(found.provider()).isEqualTo(DevnetAccounts.anvil(6).getAddress());
        assertThat(found.deposit()).isEqualTo(BigInteger.valueOf(2_500_000));
        assertThat(found.claimed()).isZero();
        assertThat(found.expiry()).isEqualTo(channel.expiry().longValueExact());
        assertThat(found.blockNumber()).isGreaterThanOrEqualTo(channel.blockNumber().longValueExact());
    }

    @Test
    void anUnknownChannelIsAnsweredAtOnceWithoutAskingAgain() {
        long before = client.counters().requests();

        assertThat(lookup.find("0x" + "5a".repeat(32))).isEmpty();

        assertThat(client.counters().requests() - before).as("block number and call, once").isEqualTo(2);
    }

    /** Only what failed in transport is asked again; the zeros that come back then are the answer. */
    @Test
    void transportFailuresAreRetriedAndTheUnknownChannelIsStillAnsweredOnce() {
        try (RpcProxy proxy = RpcProxy.failingEveryOther(DEVNET.rpcUrl(), Duration.ofMillis(600))) {
            JsonRpcClient faulty = new JsonRpcClient(proxy.url(), Duration.ofMillis(300),
                    new RetryPolicy(6, Duration.ofMillis(10), Duration.ofMillis(50), 2.0, 0.0));
            ContractChannelLookup throughFaults = new ContractChannelLookup(new EthApi(faulty), DEVNET.channelAddress());

            assertThat(throughFaults.find("0x" + "5b".repeat(32))).isEmpty();

            assertThat(proxy.faults()).as("faults met and retried").isPositive();
            assertThat(proxy.requests() - proxy.faults()).as("answers that reached the lookup").isEqualTo(2);
        }
    }

    /**
     * The deployed contract's {@code getChannel} returns a {@code Channel} struct, the project's
     * five values. A struct of static members is ABI-encoded in place, without an offset, so both
     * answer the same 160 bytes and one decoding reads both.
     */
    @Test
    void aTupleAnswerOfGetChannelIsTheSame160BytesAsTheFiveValues() {
        OpenedChannel channel = DEVNET.fundAndOpen(DevnetAccounts.anvil(5), DevnetAccounts.anvil(6).getAddress(),
                BigInteger.valueOf(1_500_000), 7_200);
        String call = FunctionEncoder.encode(new Function("getChannel",
                List.of(new Bytes32(Numeric.hexStringToByteArray(channel.channelId()))), List.of()));
        String fiveValues = DEVNET.rpc().call(DEVNET.channelAddress(), DEVNET.channelAddress(), call);

        String tuple = "0x" + TypeEncoder.encode(new StaticStruct(new Address(channel.consumer()),
                new Address(channel.provider()), new Uint256(channel.deposit()), new Uint256(BigInteger.ZERO),
                new Uint256(channel.expiry())));

        assertThat(tuple).hasSize(2 + 320).isEqualTo(fiveValues);
        OnChainChannel fromTuple = ContractChannelLookup.decode(tuple, 42).orElseThrow();
        assertThat(fromTuple).isEqualTo(ContractChannelLookup.decode(fiveValues, 42).orElseThrow());
        assertThat(fromTuple.consumer()).isEqualTo(channel.consumer());
        assertThat(fromTuple.deposit()).isEqualTo(channel.deposit());
        assertThat(fromTuple.expiry()).isEqualTo(channel.expiry().longValueExact());
    }

    @Test
    void aMalformedIdIsNoChannel() {
        assertThat(lookup.find("0x1234")).isEmpty();
    }
}
