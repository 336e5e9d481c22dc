package io.chanledger.api.ledger.audit;

import io.chanledger.api.ledger.channels.command.ContractSettingsHistory;
import io.chanledger.api.config.ChainProperties;
import io.chanledger.chain.rpc.EthApi;
import io.chanledger.chain.rpc.JsonRpcClient;
import io.chanledger.chain.rpc.RetryPolicy;
import io.chanledger.storage.EventStoreMapper;
import java.io.BufferedOutputStream;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * {@code java -jar ledger-api.jar audit <command>}: the auditor's tools.
 *
 * <pre>
 * audit export [--channel ID] [--after N] [--out FILE]   events as NDJSON (standard output by default)
 * audit verify FILE --contract ADDRESS [--chain-id 137] [--fee-bps 200] [--rpc-url URL --usdc ADDRESS]
 *                                                         signatures and invariants; x402 payments against the chain
 * audit reconcile [--channel ID]...                      open channels against the contract, at one block
 * </pre>
 *
 * verify takes the fee the contract's changes in the export start from ({@code --fee-bps}); reconcile
 * reads the token in force from the ledger's record of the contract's changes.
 *
 * export and reconcile read the service's database (and, for reconcile, its chain RPC) with the
 * service's own settings: profiles, environment, and {@code --spring.*} / {@code --chan.*}
 * arguments. Exit status: 0 clean, 1 findings, 2 the command could not run.
 */
public final class AuditCommand {

    static final int CLEAN = 0;
    static final int FINDINGS = 1;
    static final int FAILED = 2;
    private static final Duration RPC_TIMEOUT = Duration.ofSeconds(10);

    private static final String USAGE = """
            usage: audit export [--channel ID] [--after N] [--out FILE]
                   audit verify FILE --contract ADDRESS [--chain-id 137] [--fee-bps 200] [--rpc-url URL --usdc ADDRESS]
                   audit reconcile [--channel ID]...
            export and reconcile take the service's settings too (--spring.profiles.active=postgres, --chan.chain.rpc-url=...).
            """;

    private AuditCommand() {
    }

    public static int run(String[] args) {
        return run(args, System.out, System.err);
    }

    /** As {@link #run(String[])}, writing the report to {@code out} and what went wrong to {@code err}. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length == 0) {
            err.print(USAGE);
            return FAILED;
        }
        try {
            Options options = Options.parse(args);
            return switch (args[0]) {
                case "export" -> export(options, out, err);
                case "verify" -> verify(options, out, err);
                case "reconcile" -> reconcile(options, out, err);
                default -> throw new IllegalArgumentException("unknown audit command " + args[0]);
            };
        } catch (IllegalArgumentException e) {
            err.println("audit: " + e.getMessage());
            err.print(USAGE);
            return FAILED;
        } catch (IOException | RuntimeException e) {
            err.println("audit " + args[0] + " failed: " + e);
            return FAILED;
        }
    }

    private static int export(Options options, PrintStream out, PrintStream err) throws IOException {
        String channel = options.single("--channel");
        long after = options.number("--after", 0);
        String file = options.single("--out");
        try (ConfigurableApplicationContext context = AuditContext.start(options.settings, file == null);
             OutputStream target = new BufferedOutputStream(file == null ? out : Files.newOutputStream(Path.of(file)),
                     1 << 16)) {
            long written = context.getBean(EventExport.class).write(target, after, null,
                    channel == null ? null : channel.toLowerCase(Locale.ROOT));
            target.flush();
            err.printf(Locale.ROOT, "exported %,d events%s%n", written, file == null ? "" : " to " + file);
            return CLEAN;
        }
    }

    static int verify(Options options, PrintStream out, PrintStream err) throws IOException {
        if (options.positional.size() != 1) {
            throw new IllegalArgumentException("verify takes one export file");
        }
        String contract = options.single("--contract");
        if (contract == null) {
            throw new IllegalArgumentException("verify needs --contract: the channel contract vouchers were signed for");
        }
        long chainId = options.number("--chain-id", 137);
        int startingFeeBps = (int) options.number("--fee-bps", 200);
        Path file = Path.of(options.positional.getFirst());
        String rpcUrl = options.single("--rpc-url");
        String usdc = options.single("--usdc");
        if ((rpcUrl == null) != (usdc == null)) {
            throw new IllegalArgumentException("verify reconciles x402 payments with both --rpc-url and --usdc, or neither");
        }
        X402Transfers x402Chain = rpcUrl == null ? null
                : X402Transfers.onChain(new EthApi(new JsonRpcClient(rpcUrl, RPC_TIMEOUT, RetryPolicy.defaults())), usdc);
        ExportVerifier verifier = new ExportVerifier(chainId, contract, startingFeeBps,
                EventStoreMapper.create(), x402Chain);
        ExportVerifier.Report report;
        try (BufferedReader lines = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            report = verifier.verify(lines, ProgressMeter.onStandardError("verifying", Files.size(file)));
        }
        out.printf(Locale.ROOT, "audit verify %s (chain %d, contract %s, fee %d bps until the first fee change)%n",
                file, chainId, contract, startingFeeBps);
        out.printf(Locale.ROOT, "%,d lines, %,d channel events of %,d channels, %,d signatures checked,"
                + " %,d fee changes followed%n", report.lines(), report.channelEvents(), report.channels(),
                report.signatures(), report.feeUpdates());
        out.printf(Locale.ROOT, "%,d x402 payments, %s%n", report.x402Payments(), x402Chain == null
                ? "not reconciled (no --rpc-url)" : String.format(Locale.ROOT, "%,d reconciled with their transfers on chain",
                report.x402Reconciled()));
        report.findings().forEach(finding -> out.println("  " + finding));
        out.println(report.clean() ? "OK: no findings" : "FAILED: " + report.findings().size() + " findings");
        return report.clean() ? CLEAN : FINDINGS;
    }

    private static int reconcile(Options options, PrintStream out, PrintStream err) {
        try (ConfigurableApplicationContext context = AuditContext.start(options.settings, false)) {
            ChainProperties chain = context.getBean(ChainProperties.class);
            if (!chain.rpcConfigured() || chain.channelContract() == null) {
                throw new IllegalArgumentException("reconcile needs chan.chain.rpc-url and .channel-contract");
            }
            String usdc = context.getBean(ContractSettingsHistory.class).current().usdc();
            if (usdc == null) {
                throw new IllegalArgumentException("reconcile needs chan.chain.usdc: the ledger recorded no token change");
            }
            EthApi eth = new EthApi(new JsonRpcClient(chain.rpcUrl(), RPC_TIMEOUT, RetryPolicy.defaults()));
            Reconciler.Report report = new Reconciler(context.getBean(LedgerChannels.class), chain.channelContract())
                    .reconcile(new ContractChainReader(eth, chain.channelContract(), usdc),
                            options.all("--channel").stream().map(id -> id.toLowerCase(Locale.ROOT)).toList());
            out.printf(Locale.ROOT, "audit reconcile at block %d, token %s: %,d channels compared%n", report.block(),
                    usdc, report.channelsCompared());
            report.mismatches().forEach(finding -> out.println("  " + finding));
            report.notes().forEach(note -> out.println("  note: " + note));
            out.println(report.clean() ? "OK: no mismatches" : "FAILED: " + report.mismatches().size() + " mismatches");
            return report.clean() ? CLEAN : FINDINGS;
        }
    }

    /** The command's own options, its positional arguments, and the service settings passed through. */
    static final class Options {
        final List<String[]> pairs = new ArrayList<>();
        final List<String> positional = new ArrayList<>();
        final List<String> settings = new ArrayList<>();

        static Options parse(String[] args) {
            Options options = new Options();
            for (int i = 1; i < args.length; i++) {
                String arg = args[i];
                if (arg.startsWith("--spring.") || arg.startsWith("--chan.") || arg.startsWith("--logging.")) {
                    options.settings.add(arg);
                } else if (arg.startsWith("--")) {
                    int equals = arg.indexOf('=');
                    if (equals > 0) {
                        options.pairs.add(new String[] {arg.substring(0, equals), arg.substring(equals + 1)});
                    } else if (i + 1 < args.length) {
                        options.pairs.add(new String[] {arg, args[++i]});
                    } else {
                        throw new IllegalArgumentException(arg + " needs a value");
                    }
                } else {
                    options.positional.add(arg);
                }
            }
            return options;
        }

        List<String> all(String name) {
            return pairs.stream().filter(p -> p[0].equals(name)).map(p -> p[1]).toList();
        }

        String single(String name) {
            List<String> values = all(name);
            if (values.size() > 1) {
                throw new IllegalArgumentException(name + " given more than once");
            }
            return values.isEmpty() ? null : values.getFirst();
        }

        long number(String name, long fallback) {
            String value = single(name);
            if (value == null) {
                return fallback;
            }
            try {
                return Long.parseLong(value);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(name + " must be a whole number");
            }
        }
    }
}
