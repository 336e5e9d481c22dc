package io.chanledger.api.provider.x402;

import static io.chanledger.api.provider.x402.X402Fixtures.PRICE;
import static io.chanledger.api.provider.x402.X402Fixtures.authorization;
import static io.chanledger.api.provider.x402.X402Fixtures.instance;
import static io.chanledger.api.provider.x402.X402Fixtures.payer;
import static io.chanledger.api.provider.x402.X402Fixtures.payment;
import static io.chanledger.api.provider.x402.X402Fixtures.providerWallet;
import static org.assertj.core.api.Assertions.assertThat;

import io.chanledger.api.ledger.audit.AuditCommand;
import io.chanledger.api.provider.x402.X402Settlement.Reservation;
import io.chanledger.api.provider.x402.X402Settlement.Settlement;
import io.chanledger.api.provider.x402.X402Settlement.Verification;
import io.chanledger.api.support.Http;
import io.chanledger.api.support.LedgerIntegrationTest;
import io.chanledger.testsupport.Devnet;
import io.chanledger.domain.eip712.Eip3009TypedData;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.axonframework.eventsourcing.eventstore.EventStore;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.jdbc.core.JdbcTemplate;
import org.web3j.crypto.Credentials;

/**
 * The audit export carries the settled x402 payments, and its verifier reconciles each against the
 * chain (real anvil, the devnet's EIP-3009 token): the Transfer of exactly its amount, from its
 * payer to its provider, in its transaction. A tampered export fails.
 */
class X402AuditTest extends LedgerIntegrationTest {

    @Autowired
    DataSource dataSource;
    @Autowired
    EventStore eventStore;
    @Value("${chan.admin.token}")
    String adminToken;
    @TempDir
    Path dir;

    private Devnet devnet;
    private String payTo;
    private List<String> export;
    private Settlement.Settled first;
    private Settlement.Settled second;

    @BeforeEach
    void twoSettledPayments() {
        JdbcTemplate jdbc = new JdbcTemplate(dataSource);
        long head = jdbc.queryForObject("SELECT COALESCE(MAX(global_index), 0) FROM domain_event_entry", Long.class);
        devnet = devnet();
        Credentials provider = providerWallet(devnet);
        payTo = provider.getAddress().toLowerCase();
        Credentials payer = payer(devnet, BigInteger.valueOf(1_000_000));
        ProviderFacilitator facilitator = instance(devnet, devnet.rpcUrl(), provider, dataSource, Duration.ofSeconds(20),
                Clock.systemUTC(), new X402Ledger(eventStore, Clock.systemUTC())).facilitator();
        first = settle(facilitator, PRICE, payer);
        second = settle(facilitator, PRICE.add(BigInteger.ONE), payer);

        Http.Reply reply = Http.send(HttpRequest.newBuilder(URI.create(baseUrl() + "/api/audit/events?after=" + head))
                .header("Authorization", "Bearer " + adminToken));
        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        // other tests share the event store: the export under test is this provider's payments
        export = reply.body().lines().filter(line -> line.contains(payTo)).toList();
        assertThat(export).hasSize(2).allSatisfy(line -> assertThat(line).contains("\"type\":\"X402PaymentSettled\""));
    }

    private Settlement.Settled settle(ProviderFacilitator on, BigInteger amount, Credentials payer) {
        PaymentRequirements offer = PaymentRequirements.exact(amount, devnet.usdcAddress(), Eip3009TypedData.USDC_NAME,
                Eip3009TypedData.USDC_VERSION, payTo, 60);
        PaymentPayload payment = payment(devnet, payer, authorization(devnet, payer, payTo, amount), offer);
        Reservation reserved = on.reserve((Verification.Valid) on.verify(payment, offer));
        return (Settlement.Settled) on.settle((Reservation.Reserved) reserved, "echo-flat");
    }

    private record Verdict(int status, String report) {
    }

    private Verdict verify(List<String> lines, boolean withChain) throws Exception {
        Path file = Files.write(dir.resolve("export-" + System.nanoTime() + ".ndjson"), lines);
        List<String> args = new ArrayList<>(List.of("verify", file.toString(), "--contract", devnet.channelAddress(),
                "--chain-id", String.valueOf(devnet.chainId())));
        if (withChain) {
            args.addAll(List.of("--rpc-url", devnet.rpcUrl(), "--usdc", devnet.usdcAddress()));
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int status = AuditCommand.run(args.toArray(String[]::new), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(new ByteArrayOutputStream()));
        return new Verdict(status, out.toString(StandardCharsets.UTF_8));
    }

    private List<String> changed(int index, String from, String to) {
        List<String> copy = new ArrayList<>(export);
        copy.set(index, copy.get(index).replace(from, to));
        assertThat(copy.get(index)).as("the tampering changed the line").isNotEqualTo(export.get(index));
        return copy;
    }

    @Test
    void theExportOfSettledPaymentsReconcilesWithTheChain() throws Exception {
        Verdict verdict = verify(export, true);

        assertThat(verdict.status()).as(verdict.report()).isZero();
        assertThat(verdict.report()).contains("2 x402 payments, 2 reconciled with their transfers on chain");
    }

    @Test
    void anAmountRaisedInTheExportFailsAgainstTheChain() throws Exception {
        int line = export.get(0).contains(first.transaction()) ? 0 : 1;
        List<String> tampered = changed(line, "\"amount\":\"" + PRICE + "\"", "\"amount\":\"" + PRICE.add(BigInteger.TEN) + "\"");

        Verdict verdict = verify(tampered, true);

        assertThat(verdict.status()).as(verdict.report()).isEqualTo(1);
        assertThat(verdict.report()).contains("line " + (line + 1) + ",").contains("x402_transfer_mismatch")
                .contains("FAILED: 1 findings");
    }

    @Test
    void aPaymentMovedToAnotherTransactionFailsAgainstTheChain() throws Exception {
        int line = export.get(0).contains(first.transaction()) ? 1 : 0;
        List<String> tampered = changed(line, second.transaction(), first.transaction());

        Verdict verdict = verify(tampered, true);

        assertThat(verdict.status()).as(verdict.report()).isEqualTo(1);
        assertThat(verdict.report()).contains("x402_transfer_mismatch").contains("x402_duplicate_transaction");
    }

    @Test
    void aPaymentCopiedIntoTheExportIsFoundWithoutTheChain() throws Exception {
        List<String> tampered = new ArrayList<>(export);
        tampered.add(export.get(0).replaceFirst("\"globalIndex\":\\d+", "\"globalIndex\":" + Long.MAX_VALUE));

        Verdict verdict = verify(tampered, false);

        assertThat(verdict.status()).as(verdict.report()).isEqualTo(1);
        assertThat(verdict.report()).contains("x402_duplicate_payment").contains("not reconciled");
    }
}
