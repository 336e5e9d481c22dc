package io.chanledger.api.support;

import io.chanledger.api.provider.x402.X402Reason;
import io.chanledger.domain.channel.VoucherRejection;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The error codes the service can answer, by error table of docs/api.md: read from the voucher
 * rejections' enum and from the sources, where codes are string literals handed to a refusal
 * next to its status ({@code new ApiProblem(HttpStatus.X, "code"}, {@code GatewayProblem},
 * {@code ErrorBodies.render}, the gas station's {@code refused}, the wallet check's
 * {@code refused("code"}), so that a new code needs no list kept by hand. The few codes written in
 * other forms are named below, and each must still be found in the sources.
 */
public final class ErrorCodes {

    private static final Path SOURCES = Path.of("src", "main", "java", "io", "chanledger", "api");
    /** The provider's gateway, whose refusals are {@code X-CHAN-Error} codes, not problem+json. */
    private static final String GATEWAY = "provider/gateway";
    private static final String GAS_STATION = "marketplace/gasstation";
    /**
     * A code right after an error status argument (not a success's, such as the gas station's
     * {@code granted}), or as the first argument of the refusals that fix the status themselves
     * (not a metric's {@code metrics.refused("feedback", ...)}).
     */
    private static final Pattern CODE_LITERAL = Pattern.compile(
            "HttpStatus\\.(?!OK\\b|CREATED\\b|ACCEPTED\\b)[A-Z_]+,\\s*\"([a-z]+(?:_[a-z0-9]+)*)\""
                    + "|(?:\\bbadRequest|(?<![.\\w])refused)\\(\\s*\"([a-z]+(?:_[a-z0-9]+)*)\"");
    /**
     * Rejections only a metered voucher (one paying for a gateway request) meets: the ledger API's
     * voucher endpoint never answers them.
     */
    private static final Set<VoucherRejection> METERED_ONLY = EnumSet.of(VoucherRejection.INSUFFICIENT_FUNDS,
            VoucherRejection.WRONG_PROVIDER, VoucherRejection.CHANNEL_CLOSING, VoucherRejection.CLAIM_PENDING);
    /**
     * Codes of the ledger API written in other forms: a constant, and the container's answer to a
     * body that did not arrive in time, named after its status ({@code ContainerErrors}).
     */
    private static final Set<String> API_OTHER_FORMS = Set.of("lookup_rate_limited", "request_timeout");
    /**
     * The gateway answers the ledger's look-up refusals in its own shape, and names a stream's
     * shortfall in its closing comment.
     */
    private static final Set<String> GATEWAY_OTHER_FORMS = Set.of("lookup_rate_limited", "chain_unavailable",
            "insufficient_funds_post");

    private ErrorCodes() {
    }

    /** The {@code code}s of the problem+json answers under {@code /api}: every package but the gateway's and the gas station's. */
    public static Set<String> api() {
        Set<String> codes = literalsOutside(GATEWAY, GAS_STATION);
        for (VoucherRejection reason : VoucherRejection.values()) {
            if (!METERED_ONLY.contains(reason)) {
                codes.add(reason.code());
            }
        }
        codes.addAll(API_OTHER_FORMS);
        return codes;
    }

    /** The {@code X-CHAN-Error} codes of the provider interface under {@code /v1}. */
    public static Set<String> gateway() {
        Set<String> codes = literalsIn(GATEWAY);
        for (VoucherRejection reason : VoucherRejection.values()) {
            codes.add(reason.providerCode());
        }
        // an x402 payment refused, or whose settlement failed, is answered with the spec's reason
        for (X402Reason reason : X402Reason.values()) {
            codes.add(reason.code());
        }
        codes.addAll(GATEWAY_OTHER_FORMS);
        return codes;
    }

    /** The gas station's codes. */
    public static Set<String> gasStation() {
        return literalsIn(GAS_STATION);
    }

    /**
     * The codes named as exceptions above that the sources no longer hold, as a string literal or
     * (a status-named code) as the status's constant.
     */
    public static Set<String> otherFormsMissingFromTheSources() {
        String sources = String.join("\n", read(files(SOURCES)));
        Set<String> missing = new TreeSet<>();
        Stream.concat(API_OTHER_FORMS.stream(), GATEWAY_OTHER_FORMS.stream())
                .filter(code -> !sources.contains("\"" + code + "\"")
                        && !sources.contains(code.toUpperCase(Locale.ROOT)))
                .forEach(missing::add);
        return missing;
    }

    private static Set<String> literalsIn(String folder) {
        return literals(read(files(SOURCES.resolve(folder))));
    }

    private static Set<String> literalsOutside(String... folders) {
        Set<Path> excluded = Stream.of(folders).map(SOURCES::resolve).collect(Collectors.toSet());
        return literals(read(files(SOURCES).stream()
                .filter(file -> excluded.stream().noneMatch(file::startsWith)).toList()));
    }

    private static Set<String> literals(List<String> texts) {
        Set<String> codes = new TreeSet<>();
        for (String text : texts) {
            Matcher literal = CODE_LITERAL.matcher(text);
            while (literal.find()) {
                codes.add(literal.group(1) != null ? literal.group(1) : literal.group(2));
            }
        }
        return codes;
    }

    private static List<Path> files(Path directory) {
        try (Stream<Path> tree = Files.walk(directory)) {
            return tree.filter(file -> file.toString().endsWith(".java")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<String> read(List<Path> files) {
        return files.stream().map(file -> {
            try {
                return Files.readString(file);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }).toList();
    }
}
