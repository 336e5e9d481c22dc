package io.chanledger.api.marketplace.directory;

import io.chanledger.api.config.ChainProperties;
import io.chanledger.api.config.ProtocolProperties;
import io.chanledger.domain.eip712.Hex;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The two texts for agents with little context, written from this deployment's configuration:
 * {@code /llms.txt}, a short quick reference in the llms.txt convention (title, summary, sections
 * of links), and {@code /skill.md}, the whole guide as a skill (front matter with name and
 * description, then the flow step by step). The prose lives in {@code agent-guides/} beside the
 * code; every {@code {{placeholder}}} in it is a setting of this deployment, and a placeholder
 * without a value fails at start rather than reaching an agent.
 */
final class AgentGuides {

    private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{([A-Za-z]+)}}");

    private final String llmsTxt;
    private final String skillMd;

    AgentGuides(MarketplaceProperties properties, ChainProperties chain, ProtocolProperties protocol) {
        String contract = Hex.toChecksumAddress(chain.channelContract());
        Map<String, String> values = new LinkedHashMap<>();
        values.put("name", properties.agent().name());
        values.put("purpose", properties.agent().purpose());
        values.put("marketplaceUrl", properties.marketplaceUrl());
        values.put("contract", contract);
        values.put("contractLowercase", contract.toLowerCase(Locale.ROOT));
        values.put("usdc", Hex.toChecksumAddress(chain.usdc()));
        values.put("chainId", Long.toString(chain.chainId()));
        values.put("networkName", properties.networkName());
        values.put("protocolHeader", ProtocolProperties.NAME);
        values.put("providerProtocol", properties.providerProtocol());
        values.put("feePercent", BigDecimal.valueOf(protocol.feeBps(), 2).stripTrailingZeros().toPlainString());
        this.llmsTxt = render("llms.txt", values);
        this.skillMd = render("skill.md", values);
    }

    String llmsTxt() {
        return llmsTxt;
    }

    String skillMd() {
        return skillMd;
    }

    private static String render(String name, Map<String, String> values) {
        Matcher matcher = PLACEHOLDER.matcher(template(name));
        StringBuilder text = new StringBuilder();
        while (matcher.find()) {
            String value = values.get(matcher.group(1));
            if (value == null) {
                throw new IllegalStateException("agent-guides/" + name + " uses {{" + matcher.group(1)
                        + "}}, which no setting fills");
            }
            matcher.appendReplacement(text, Matcher.quoteReplacement(value));
        }
        matcher.appendTail(text);
        return text.toString();
    }

    private static String template(String name) {
        try (InputStream in = AgentGuides.class.getResourceAsStream("/agent-guides/" + name)) {
            if (in == null) {
                throw new IllegalStateException("agent-guides/" + name + " is missing from the application");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
