package io.chanledger.chain.lookup;

import static org.assertj.core.api.Assertions.assertThat;

import io.chanledger.chain.devnet.Devnet;
import io.chanledger.chain.devnet.DevnetAccounts;
import io.chanledger.chain.devnet.OpenedChannel;
import io.chanledger.chain.rpc.EthApi;
import io.chanledger.chain.rpc.JsonRpcClient;
import io.chanledger.chain.rpc.RetryPolicy;
import io.chanledger.domain.channel.ChannelLookup.OnChainChannel;
import java.math.BigInteger;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ContractChannelLookupTest {

    private static final Devnet DEVNET = Devnet.shared();

    private final JsonRpcClient client = new JsonRpcClient(DEVNET.rpcUrl(), Duration.ofSeconds(5), RetryPolicy.defaults());
    private final ContractChannelLookup lookup =
            new ContractChannelLookup(new EthApi(client), DEVNET.channelAddress(), 3, Duration.ofMillis(20));

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
    void asksAgainBrieflyBeforeReportingAnUnknownChannel() {
        long before = client.counters().requests();

        assertThat(lookup.find("0x" + "5a".repeat(32))).isEmpty();

        assertThat(client.counters().requests() - before).as("block number and call, three times").isEqualTo(6);
    }

    @Test
    void aMalformedIdIsNoChannel() {
        assertThat(lookup.find("0x1234")).isEmpty();
    }
}
