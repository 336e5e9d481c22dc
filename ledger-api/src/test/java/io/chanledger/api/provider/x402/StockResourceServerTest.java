package io.chanledger.api.provider.x402;

import static io.chanledger.api.provider.x402.X402Fixtures.PRICE;
import static io.chanledger.api.provider.x402.X402Fixtures.payer;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chanledger.api.provider.ProviderIdentity;
import io.chanledger.api.support.LedgerIntegrationTest;
import io.chanledger.testsupport.Devnet;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.web3j.crypto.Credentials;
import org.web3j.utils.Numeric;

/**
 * A stock x402 resource server ({@code @x402/express} 2.27, as installed from the registry into
 * deploy/node_modules) configured with this provider's facilitator URL is paid by the stock client
 * ({@code @x402/fetch} 2.27 with {@code @x402/evm} and a viem local account): the provider's wallet
 * receives exactly the price, settled by one transaction recorded here. Runs
 * deploy/devnet/x402-facilitator-check.mjs; it fails where the npm tools of deploy/ are not installed.
 */
class StockResourceServerTest extends LedgerIntegrationTest {

    private static final Path DEPLOY = Path.of("..", "deploy");
    private static final ObjectMapper JSON = new ObjectMapper();

    @Autowired
    ProviderIdentity identity;

    @Autowired
    ProviderFacilitator facilitator;

    @Test
    void theStockClientPaysTheStockServerThroughTheProvidersFacilitator() throws Exception {
        // deploy/test.sh installs the npm tools, as the devnet's anvil needs them too: never a silent skip
        assertThat(DEPLOY.resolve("node_modules/@x402/express"))
                .as("the npm tools of deploy/ (npm ci in deploy/, as deploy/test.sh does)").isDirectory();
        Devnet devnet = devnet();
        String payTo = identity.address();
        devnet.setBalance(payTo, Devnet.GAS_MONEY);
        Credentials payer = payer(devnet, BigInteger.valueOf(1_000_000));
        BigInteger before = devnet.balanceOf(payTo);
        // the client signs validBefore = now + maxTimeoutSeconds by the wall clock; tests move the devnet's clock ahead
        long chainAhead = Math.max(0, devnet.latestBlockTimestamp().longValueExact() - System.currentTimeMillis() / 1000);

        ProcessBuilder builder = new ProcessBuilder(List.of("node", "devnet/x402-facilitator-check.mjs"))
                .directory(DEPLOY.toFile()).redirectErrorStream(false);
        builder.environment().put("CHAN_FACILITATOR_URL", baseUrl() + X402FacilitatorController.PREFIX);
        builder.environment().put("CHAN_PAY_TO", payTo);
        builder.environment().put("CHAN_PAYER_KEY",
                Numeric.toHexStringWithPrefixZeroPadded(payer.getEcKeyPair().getPrivateKey(), 64));
        builder.environment().put("CHAN_X402_PRICE", "$0.01");
        builder.environment().put("CHAN_X402_MAX_TIMEOUT_SECONDS", Long.toString(chainAhead + 600));
        builder.redirectError(ProcessBuilder.Redirect.INHERIT);
        Process process = builder.start();
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).as("the script ended within 2 minutes").isTrue();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();

        assertThat(process.exitValue()).as(output).isZero();
        JsonNode result = JSON.readTree(output.substring(output.lastIndexOf('\n') + 1));
        String transaction = result.path("paymentResponse").path("transaction").asText();
        assertThat(transaction).startsWith("0x").hasSize(66);
        assertThat(devnet.balanceOf(payTo)).isEqualTo(before.add(PRICE));
        assertThat(devnet.balanceOf(payer.getAddress())).isEqualTo(BigInteger.valueOf(1_000_000).subtract(PRICE));
        assertThat(facilitator.lookup(new PaymentKey(payer.getAddress().toLowerCase(),
                result.path("paymentResponse").path("transaction").isMissingNode() ? "" : nonceOf(transaction, devnet))))
                .hasValueSatisfying(record -> {
                    assertThat(record.status()).isEqualTo(X402Settlement.PaymentStatus.SETTLED);
                    assertThat(record.transaction()).isEqualTo(transaction);
                    assertThat(record.amount()).isEqualTo(PRICE);
                });
    }

    /** The authorization nonce of the token's AuthorizationUsed log in the settling transaction. */
    private static String nonceOf(String transaction, Devnet devnet) throws Exception {
        var receipt = devnet.web3j().ethGetTransactionReceipt(transaction).send().getTransactionReceipt().orElseThrow();
        return io.chanledger.chain.abi.Eip3009Token.authorizationsUsed(receipt.getLogs(), devnet.usdcAddress())
                .getFirst().nonce();
    }
}
