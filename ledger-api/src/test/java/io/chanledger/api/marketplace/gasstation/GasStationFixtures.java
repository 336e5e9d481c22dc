package io.chanledger.api.marketplace.gasstation;

import io.chanledger.api.config.ChainProperties;
import io.chanledger.testsupport.Devnet;
import io.chanledger.testsupport.DevnetAccounts;
import io.chanledger.chain.rpc.EthApi;
import io.chanledger.chain.rpc.JsonRpcClient;
import io.chanledger.chain.rpc.RetryPolicy;
import io.chanledger.projections.gasgrant.GasGrantTable;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.springframework.jdbc.core.JdbcTemplate;
import org.web3j.crypto.Credentials;
import org.web3j.protocol.core.DefaultBlockParameterName;

/** Wallets, faucets, stations of their own and on-chain reads for the gas station tests. */
final class GasStationFixtures {

    static final BigInteger GRANT = BigInteger.TEN.pow(17);
    static final BigInteger FIVE_USDC = BigInteger.valueOf(5_000_000);
    static final BigInteger FEE_CAP = BigInteger.valueOf(50_000_000_000L);

    private GasStationFixtures() {
    }

    /** A wallet no test has used, holding {@code usdc} base units and no POL. */
    static String walletWith(Devnet devnet, BigInteger usdc) {
        String wallet = DevnetAccounts.labelled("gas-station-wallet-" + UUID.randomUUID()).getAddress();
        if (usdc.signum() > 0) {
            devnet.mint(wallet, usdc);
        }
        return wallet;
    }

    /** A faucet account of a test's own, holding {@code wei}. */
    static Credentials faucetWith(Devnet devnet, BigInteger wei) {
        Credentials faucet = DevnetAccounts.labelled("gas-station-faucet-" + UUID.randomUUID());
        devnet.setBalance(faucet.getAddress(), wei);
        return faucet;
    }

    static GasStationProperties properties(Duration receiptTimeout, Duration staleAfter) {
        return properties(receiptTimeout, staleAfter, new GasStationProperties.Grants(100, Duration.ofMinutes(10)));
    }

    static GasStationProperties properties(Duration receiptTimeout, Duration staleAfter,
                                           GasStationProperties.Grants grants) {
        return new GasStationProperties(null, null, GRANT, FIVE_USDC, 21_000, receiptTimeout,
                Duration.ofMillis(100), staleAfter, Duration.ofSeconds(1), 5_000,
                Duration.ofSeconds(2), Duration.ZERO, "X-Forwarded-For",
                new GasStationProperties.RateLimit(3, Duration.ofMinutes(10), 1_000), grants);
    }

    /** A station of its own for {@code faucet}, talking to the node at {@code rpcUrl}, recording in the shared ledger. */
    static EnabledGasStation station(Devnet devnet, String rpcUrl, Credentials faucet, GasStationProperties properties,
                                     CommandGateway commands, GasGrantTable table) {
        RetryPolicy retry = new RetryPolicy(2, Duration.ofMillis(50), Duration.ofMillis(200), 2.0, 0.0);
        EthApi eth = new EthApi(new JsonRpcClient(rpcUrl, Duration.ofSeconds(2), retry));
        Clock clock = Clock.systemUTC();
        return GasStationConfiguration.assemble(eth, faucet, devnet.chainId(), devnet.usdcAddress(), properties,
                new ChainProperties.Fees(BigInteger.ZERO, FEE_CAP),
                new GrantLedger(commands, clock), table, new GasStationMetrics(new SimpleMeterRegistry()), clock);
    }

    static BigInteger polBalance(Devnet devnet, String address) {
        try {
            return devnet.web3j().ethGetBalance(address, DefaultBlockParameterName.LATEST).send().getBalance();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Transactions {@code address} has had mined. */
    static long nonce(Devnet devnet, String address) {
        try {
            return devnet.web3j().ethGetTransactionCount(address, DefaultBlockParameterName.LATEST).send()
                    .getTransactionCount().longValueExact();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The wallet's GasGrant events, in order, by simple type name. */
    static List<String> events(JdbcTemplate jdbc, String wallet) {
        return jdbc.queryForList("SELECT payload_type FROM domain_event_entry WHERE aggregate_identifier = ?"
                        + " ORDER BY sequence_number", String.class, wallet.toLowerCase())
                .stream().map(type -> type.substring(type.lastIndexOf('.') + 1)).toList();
    }
}
