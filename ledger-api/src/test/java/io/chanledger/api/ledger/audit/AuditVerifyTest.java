package io.chanledger.api.ledger.audit;

import static org.assertj.core.api.Assertions.assertThat;

import io.chanledger.api.support.Channels;
import io.chanledger.api.support.Http;
import io.chanledger.api.support.LedgerIntegrationTest;
import io.chanledger.api.support.TestKeys;
import io.chanledger.domain.channel.AuthorizeClose;
import io.chanledger.domain.channel.CloseKind;
import io.chanledger.domain.channel.ExpireChannel;
import io.chanledger.domain.channel.RecordClaim;
import io.chanledger.domain.channel.RecordClose;
import io.chanledger.domain.eip712.DigestSigner;
import io.chanledger.domain.eip712.Hex;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.UnaryOperator;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.jdbc.core.JdbcTemplate;

/** An export of real channel histories verifies offline; each kind of tampering is named. */
class AuditVerifyTest extends LedgerIntegrationTest {

    private static final String CONTRACT = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
    private static final DigestSigner CONSUMER = TestKeys.wallet("audit-consumer");
    private static final DigestSigner PROVIDER = TestKeys.wallet("audit-provider");
    private static final BigInteger DEPOSIT = BigInteger.valueOf(1_000_000);

    @Autowired
    CommandGateway commands;
    @Autowired
    JdbcTemplate jdbc;
    @Value("${chan.admin.token}")
    String adminToken;
    @Value("${spring.datasource.url}")
    String databaseUrl;
    @TempDir
    Path dir;

    private String closedChannel;
    private List<String> export;

    /** Two channels: one vouched, claimed, expired and closed; one vouched with a close authorization. */
    @BeforeEach
    void histories() {
        long head = jdbc.queryForObject("SELECT COALESCE(MAX(global_index), 0) FROM domain_event_entry", Long.class);
        long now = Instant.now().getEpochSecond();
        closedChannel = Channels.open(commands, CONSUMER, PROVIDER, DEPOSIT, now + 60);
        vouch(closedChannel, 100_000, 1);
        vouch(closedChannel, 200_000, 2);
        vouch(closedChannel, 300_000, 3);
        commands.sendAndWait(new RecordClaim(closedChannel, BigInteger.valueOf(250_000), BigInteger.valueOf(5_000),
                Channels.nextChainRef()));
        commands.sendAndWait(new ExpireChannel(closedChannel, now + 60, 99));
        commands.sendAndWait(new RecordClose(closedChannel, BigInteger.valueOf(750_000), CloseKind.AFTER_EXPIRY,
                Channels.nextChainRef()));
        String authorized = Channels.open(commands, CONSUMER, PROVIDER, DEPOSIT, now + 86_400);
        vouch(authorized, 40_000, 1);
        BigInteger finalAmount = BigInteger.valueOf(40_000);
        String closeSignature = Hex.encode(PROVIDER.sign(Channels.TYPED_DATA.closeAuthorizationDigest(
                Hex.decode(authorized), finalAmount)));
        commands.sendAndWait(new AuthorizeClose(authorized, finalAmount, closeSignature));
        Http.Reply reply = Http.send(HttpRequest.newBuilder(URI.create(baseUrl() + "/api/audit/events?after=" + head))
                .header("Authorization", "Bearer " + adminToken));
        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        assertThat(reply.contentType()).startsWith("application/x-ndjson");
        // other tests share the event store and may record events of older channels meanwhile:
        // the export under test is this test's two channels, as an auditor's per-channel export
        String authorizedChannel = authorized;
        export = new ArrayList<>(reply.body().lines()
                .filter(line -> line.contains(closedChannel) || line.contains(authorizedChannel)).toList());
    }

    private void vouch(String channelId, long amount, long nonce) {
        Http.Reply reply = Http.postJson(baseUrl() + "/api/channels/" + channelId + "/vouchers",
                Channels.voucherJson(CONSUMER, channelId, amount, nonce));
        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
    }

    private record Verdict(int status, String report) {
    }

    private Verdict verify(List<String> lines) throws Exception {
        Path file = Files.write(dir.resolve("export-" + System.nanoTime() + ".ndjson"), lines);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int status = AuditCommand.run(new String[] {"verify", file.toString(), "--contract", CONTRACT, "--chain-id", "137"},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(new ByteArrayOutputStream()));
        return new Verdict(status, out.toString(StandardCharsets.UTF_8));
    }

    private int lineOf(String type, String channelId, String contains) {
        for (int i = 0; i < export.size(); i++) {
            String line = export.get(i);
            if (line.contains("\"type\":\"" + type + "\"") && line.contains(channelId) && line.contains(contains)) {
                return i;
            }
        }
        throw new AssertionError("no " + type + " line with " + contains);
    }

    private List<String> changed(int index, UnaryOperator<String> change) {
        List<String> copy = new ArrayList<>(export);
        String before = copy.get(index);
        copy.set(index, change.apply(before));
        assertThat(copy.get(index)).as("the corruption changed the line").isNotEqualTo(before);
        return copy;
    }

    private static void assertFinding(Verdict verdict, String code, int line) {
        assertThat(verdict.status()).as(verdict.report()).isEqualTo(1);
        assertThat(verdict.report()).contains("line " + line + ",").contains(code).contains("FAILED");
    }

    @Test
    void aCleanExportVerifies() throws Exception {
        Verdict verdict = verify(export);

        assertThat(verdict.status()).as(verdict.report()).isZero();
        assertThat(verdict.report()).contains("OK: no findings").contains("5 signatures checked")
                .contains("2 channels");
        assertThat(export).anySatisfy(line -> assertThat(line).contains("\"chainRef\":{\"blockNumber\""));
    }

    @Test
    void aChangedAmountNoLongerMatchesItsSignature() throws Exception {
        int index = lineOf("VoucherAccepted", closedChannel, "\"amount\":\"200000\"");

        Verdict verdict = verify(changed(index, line -> line.replace("\"amount\":\"200000\"", "\"amount\":\"210000\"")));

        assertFinding(verdict, "voucher_signature_invalid", index + 1);
    }

    @Test
    void aForgedSignatureIsFound() throws Exception {
        int index = lineOf("VoucherAccepted", closedChannel, "\"amount\":\"300000\"");
        String forged = Channels.sign(TestKeys.wallet("audit-forger"), closedChannel, BigInteger.valueOf(300_000),
                BigInteger.valueOf(3));
        String genuine = Channels.sign(CONSUMER, closedChannel, BigInteger.valueOf(300_000), BigInteger.valueOf(3));

        Verdict verdict = verify(changed(index, line -> line.replace(genuine, forged)));

        assertFinding(verdict, "voucher_signature_invalid", index + 1);
        assertThat(verdict.report()).contains(TestKeys.wallet("audit-forger").address());
    }

    @Test
    void aClaimAboveTheHighestVoucherIsFound() throws Exception {
        int index = lineOf("ChannelClaimed", closedChannel, "\"payout\":\"250000\"");

        Verdict verdict = verify(changed(index, line -> line.replace("\"payout\":\"250000\"", "\"payout\":\"400000\"")
                .replace("\"fee\":\"5000\"", "\"fee\":\"8000\"")
                .replace("\"totalClaimed\":\"250000\"", "\"totalClaimed\":\"400000\"")));

        assertFinding(verdict, "claim_above_voucher", index + 1);
        assertThat(verdict.report()).doesNotContain("fee_mismatch");
    }

    @Test
    void anEventAfterTheCloseIsFound() throws Exception {
        int voucher = lineOf("VoucherAccepted", closedChannel, "\"amount\":\"300000\"");
        int close = lineOf("ChannelClosed", closedChannel, "refund");
        long lastIndex = Long.parseLong(export.getLast().replaceAll(".*\"globalIndex\":(\\d+).*", "$1"));
        long closeSequence = Long.parseLong(export.get(close).replaceAll(".*\"sequence\":(\\d+).*", "$1"));
        String late = export.get(voucher)
                .replaceFirst("\"globalIndex\":\\d+", "\"globalIndex\":" + (lastIndex + 1))
                .replaceFirst("\"sequence\":\\d+", "\"sequence\":" + (closeSequence + 1));
        List<String> tampered = new ArrayList<>(export);
        tampered.add(late);

        Verdict verdict = verify(tampered);

        assertFinding(verdict, "event_after_close", tampered.size());
    }

    @Test
    void aWrongFeeAndAWrongRefundAreFound() throws Exception {
        int claim = lineOf("ChannelClaimed", closedChannel, "\"payout\":\"250000\"");
        int close = lineOf("ChannelClosed", closedChannel, "refund");
        List<String> tampered = changed(claim, line -> line.replace("\"fee\":\"5000\"", "\"fee\":\"4999\""));
        tampered.set(close, tampered.get(close).replace("\"refund\":\"750000\"", "\"refund\":\"760000\""));

        Verdict verdict = verify(tampered);

        assertFinding(verdict, "fee_mismatch", claim + 1);
        assertFinding(verdict, "refund_mismatch", close + 1);
    }

    @Test
    void aVerifyUnderAnotherDomainFindsEverySignatureInvalid() throws Exception {
        Path file = Files.write(dir.resolve("export.ndjson"), export);
        ByteArrayOutputStream out = new ByteArrayOutputStream();

        int status = AuditCommand.run(new String[] {"verify", file.toString(), "--contract",
                "0x0000000000000000000000000000000000000001"}, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(new ByteArrayOutputStream()));

        assertThat(status).isEqualTo(1);
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("FAILED: 5 findings");
    }

    @Test
    void theCommandLineExportOfAChannelEqualsTheEndpointsAnswer() throws Exception {
        Path file = dir.resolve("channel.ndjson");

        int status = AuditCommand.run(new String[] {"export", "--channel", closedChannel, "--out", file.toString(),
                "--spring.profiles.active=postgres", "--spring.datasource.url=" + databaseUrl},
                new PrintStream(new ByteArrayOutputStream()), new PrintStream(new ByteArrayOutputStream()));

        assertThat(status).isZero();
        List<String> lines = Files.readAllLines(file);
        String contractEvents = "\"aggregateId\":\"137:" + CONTRACT.toLowerCase(Locale.ROOT) + "\"";
        assertThat(lines.stream().filter(line -> line.contains("\"aggregateId\":\"" + closedChannel)).toList())
                .isEqualTo(export.stream().filter(line -> line.contains("\"aggregateId\":\"" + closedChannel)).toList());
        assertThat(lines).as("the channel's events and the contract's fee changes, nothing else")
                .allMatch(line -> line.contains("\"aggregateId\":\"" + closedChannel) || line.contains(contractEvents))
                .anyMatch(line -> line.contains(contractEvents) && line.contains("\"type\":\"FeeUpdated\""));
    }

    @Test
    void theEventStreamIsForAdminsOnly() {
        Http.Reply anonymous = Http.get(baseUrl() + "/api/audit/events");

        assertThat(anonymous.status()).isEqualTo(401);
    }

    @Test
    void badParametersOfTheEventStreamAreNamed() {
        Http.Reply reply = Http.send(HttpRequest.newBuilder(URI.create(baseUrl() + "/api/audit/events?limit=0"))
                .header("Authorization", "Bearer " + adminToken));

        assertThat(reply.status()).isEqualTo(400);
        assertThat(reply.json().path("parameter").asText()).isEqualTo("limit");
    }

    @Test
    void anUnknownAuditCommandIsAUsageError() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();

        int status = AuditCommand.run(new String[] {"frobnicate"}, new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(err, true, StandardCharsets.UTF_8));

        assertThat(status).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("usage: audit");
    }
}
