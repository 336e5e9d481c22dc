package io.chanledger.api.provider.x402;

import io.chanledger.chain.devnet.Authorization;
import io.chanledger.chain.devnet.Devnet;
import io.chanledger.chain.devnet.DevnetAccounts;
import io.chanledger.chain.devnet.UsdcAuthorizations;
import io.chanledger.chain.rpc.EthApi;
import io.chanledger.chain.rpc.JsonRpcClient;
import io.chanledger.chain.rpc.RetryPolicy;
import io.chanledger.chain.tx.RevertReasons;
import io.chanledger.chain.tx.SenderSettings;
import io.chanledger.chain.tx.TransactionSender;
import io.chanledger.domain.eip712.Eip3009TypedData;
import java.math.BigInteger;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.sql.DataSource;
import org.web3j.crypto.Credentials;
import org.web3j.utils.Numeric;

/** Wallets, payments and facilitator instances of the x402 tests, each test with accounts of its own. */
final class X402Fixtures {

    static final BigInteger PRICE = BigInteger.valueOf(10_000);

    private X402Fixtures() {
    }

    /** A provider wallet of the test's own, with gas money and no transaction yet. */
    static Credentials providerWallet(Devnet devnet) {
        Credentials provider = DevnetAccounts.labelled("x402-provider-" + UUID.randomUUID());
        devnet.setBalance(provider.getAddress(), Devnet.GAS_MONEY);
        return provider;
    }

    /** A payer holding {@code usdc} base units and no gas: x402 payers never pay gas. */
    static Credentials payer(Devnet devnet, BigInteger usdc) {
        Credentials payer = DevnetAccounts.labelled("x402-payer-" + UUID.randomUUID());
        if (usdc.signum() > 0) {
            devnet.mint(payer.getAddress(), usdc);
        }
        return payer;
    }

    /** One instance of the provider's facilitator: a sender of its own on the shared database. */
    static Instance instance(Devnet devnet, Credentials provider, DataSource dataSource, Duration receiptTimeout) {
        return instance(devnet, provider, dataSource, receiptTimeout, Clock.systemUTC());
    }

    static Instance instance(Devnet devnet, Credentials provider, DataSource dataSource, Duration receiptTimeout,
                             Clock clock) {
        EthApi eth = new EthApi(new JsonRpcClient(devnet.rpcUrl(), Duration.ofSeconds(10), RetryPolicy.defaults()));
        TransactionSender sender = new TransactionSender(eth, provider, devnet.chainId(),
                new SenderSettings(receiptTimeout, Duration.ofMillis(50), BigInteger.ZERO, null, 20),
                new RevertReasons(Map.of()));
        List<X402Settlement.PaymentRecord> settled = new CopyOnWriteArrayList<>();
        ProviderFacilitator facilitator = new ProviderFacilitator(eth, sender, dataSource, clock,
                devnet.chainId(), devnet.usdcAddress(), Duration.ofSeconds(6), Duration.ofMinutes(15),
                (record, block) -> settled.add(record));
        return new Instance(facilitator, settled);
    }

    record Instance(ProviderFacilitator facilitator, List<X402Settlement.PaymentRecord> settled) {
    }

    /** The offer the gateway makes for {@link #PRICE}. */
    static PaymentRequirements offer(Devnet devnet, String payTo) {
        return PaymentRequirements.exact(PRICE, devnet.usdcAddress(), Eip3009TypedData.USDC_NAME,
                Eip3009TypedData.USDC_VERSION, payTo, 60);
    }

    /** An authorization of {@code value} to {@code payTo}, valid from the epoch to an hour past the chain's clock. */
    static Authorization authorization(Devnet devnet, Credentials payer, String payTo, BigInteger value) {
        long until = Math.max(System.currentTimeMillis() / 1000, devnet.latestBlockTimestamp().longValueExact()) + 3600;
        return Authorization.of(payer.getAddress(), payTo, value, 0, until);
    }

    /** A v2 payment of {@code authorization} for {@code offer}, signed by {@code signer}. */
    static PaymentPayload payment(Devnet devnet, Credentials signer, Authorization authorization,
                                  PaymentRequirements offer) {
        UsdcAuthorizations usdc = devnet.usdcAuthorizations();
        byte[] signature = usdc.signTransfer(signer, authorization);
        return new PaymentPayload(2, offer.scheme(), offer.network(), offer, Numeric.toHexString(signature),
                new ExactAuthorization(authorization.from().toLowerCase(), authorization.to().toLowerCase(),
                        authorization.value(), authorization.validAfter(), authorization.validBefore(),
                        authorization.nonce().toLowerCase()));
    }

    static long nonceOf(Devnet devnet, String account) {
        try {
            return devnet.web3j().ethGetTransactionCount(account,
                    org.web3j.protocol.core.DefaultBlockParameterName.LATEST).send().getTransactionCount().longValueExact();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
