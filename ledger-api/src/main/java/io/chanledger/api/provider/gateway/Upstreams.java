package io.chanledger.api.provider.gateway;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.chanledger.domain.provider.PriceKind;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Which upstream serves each model: a chat upstream (echo or OpenAI-compatible) for a chat model,
 * an HTTP service for a model that declares parameters. Built and cross-checked at start-up: a
 * model naming an upstream that does not exist, a chat model declaring parameters, a service
 * model without them or priced per token, a URL placeholder its schema does not require, or an
 * upstream whose calls may outlast a request's hold ({@code hold-ttl}), stop the start.
 */
final class Upstreams {

    /** What a request needs after its upstream call to be settled, retries included, before its hold lapses. */
    static final Duration SETTLE_MARGIN = Duration.ofMinutes(1);

    private final Map<String, Upstream> chat;
    private final Map<String, HttpServiceUpstream> services;

    private Upstreams(Map<String, Upstream> chat, Map<String, HttpServiceUpstream> services) {
        this.chat = chat;
        this.services = services;
    }

    /** Every model served by {@code upstream}: for tests of one upstream. */
    static Upstreams single(Upstream upstream, PriceList prices) {
        Map<String, Upstream> chat = new HashMap<>();
        prices.models().stream().filter(m -> m.service() == null).forEach(m -> chat.put(m.id(), upstream));
        return new Upstreams(chat, Map.of());
    }

    static Upstreams of(GatewayProperties properties, PriceList prices, ObjectMapper json, Clock clock) {
        Map<String, Upstream> namedChat = new HashMap<>();
        Map<String, HttpServiceUpstream> namedServices = new HashMap<>();
        for (GatewayProperties.NamedUpstream named : properties.upstreams()) {
            if (GatewayProperties.blank(named.name())) {
                throw new IllegalStateException("every chan.gateway.upstreams entry needs a name");
            }
            if (namedChat.containsKey(named.name()) || namedServices.containsKey(named.name())) {
                throw new IllegalStateException("chan.gateway.upstreams lists " + named.name() + " twice");
            }
            if ("http".equalsIgnoreCase(named.kind())) {
                namedServices.put(named.name(), HttpServiceUpstream.of(named, json));
            } else {
                String where = "chan.gateway.upstreams[" + named.name() + "]";
                namedChat.put(named.name(), chatUpstream(where, named.kind(), named.baseUrl(), named.apiKey(),
                        named.connectTimeout(), deadlines(where, named.timeout(), named.streamFirstByteTimeout(),
                                named.streamIdleTimeout(), named.streamTimeout()),
                        named.echoStreamDelay(), named.echoAnswerDelay(), named.echoAnswerTokens(), json, clock));
            }
        }
        Map<String, Upstream> chat = new HashMap<>();
        Map<String, HttpServiceUpstream> services = new HashMap<>();
        for (PriceList.ModelRate model : prices.models()) {
            String where = "chan.gateway.models[" + model.id() + "]";
            String name = model.upstream();
            HttpServiceUpstream service = name == null ? null : namedServices.get(name);
            if (service != null) {
                if (model.service() == null) {
                    throw new IllegalStateException(where + ": a model of the http upstream " + name
                            + " declares its parameters (a JSON Schema)");
                }
                if (model.configuredKind() == PriceKind.TOKENS) {
                    throw new IllegalStateException(where + ": a model of the http upstream " + name
                            + " is priced flat or per-unit, not per token");
                }
                for (String placeholder : service.placeholders()) {
                    if (!model.service().required(placeholder)) {
                        throw new IllegalStateException(where + ": the url of upstream " + name + " needs {"
                                + placeholder + "}, which its parameters do not require");
                    }
                }
                services.put(model.id(), service);
                continue;
            }
            if (GatewayProperties.blank(name)) {
                throw new IllegalStateException(where + ".upstream: name the one of chan.gateway.upstreams that"
                        + " serves it");
            }
            Upstream upstream = namedChat.get(name);
            if (upstream == null) {
                throw new IllegalStateException(where + ".upstream: no upstream " + name
                        + " in chan.gateway.upstreams");
            }
            if (model.service() != null || model.kind() == PriceKind.PER_UNIT) {
                throw new IllegalStateException(where + ": parameters and per-unit pricing are for models of an "
                        + "http upstream; this one is a chat model");
            }
            chat.put(model.id(), upstream);
        }
        checkHoldsOutlastCalls(properties, namedChat, namedServices);
        return new Upstreams(chat, services);
    }

    private static OpenAiUpstream.Deadlines deadlines(String where, Duration timeout, Duration streamFirstByteTimeout,
                                                      Duration streamIdleTimeout, Duration streamTimeout) {
        try {
            return new OpenAiUpstream.Deadlines(timeout, streamFirstByteTimeout, streamIdleTimeout, streamTimeout);
        } catch (IllegalArgumentException notPositive) {
            throw new IllegalStateException(where + ": timeout, stream-first-byte-timeout, stream-idle-timeout and "
                    + "stream-timeout must be above 0");
        }
    }

    /**
     * A hold lapses after {@code hold-ttl} whether or not its request still runs, and a lapsed hold
     * frees its room for other requests: so every upstream call must be over, and settled, well
     * before then. Echo upstreams run in process and end on their own.
     */
    private static void checkHoldsOutlastCalls(GatewayProperties properties, Map<String, Upstream> namedChat,
                                               Map<String, HttpServiceUpstream> namedServices) {
        Map<String, Duration> longest = new LinkedHashMap<>();
        namedChat.forEach((name, upstream) -> {
            if (upstream instanceof OpenAiUpstream openAi) {
                longest.put("chan.gateway.upstreams[" + name + "]", openAi.deadlines().longest());
            }
        });
        namedServices.forEach((name, service) -> longest.put("chan.gateway.upstreams[" + name + "]", service.timeout()));
        longest.forEach((where, call) -> {
            if (call.plus(SETTLE_MARGIN).compareTo(properties.holdTtl()) > 0) {
                throw new IllegalStateException("chan.gateway.hold-ttl (" + properties.holdTtl() + ") must exceed the "
                        + "longest call of " + where + " (" + call + ") by at least " + SETTLE_MARGIN
                        + ": raise hold-ttl or shorten the upstream's timeout or stream-timeout");
            }
        });
    }

    private static Upstream chatUpstream(String where, String kind, String baseUrl, String apiKey,
                                         Duration connectTimeout, OpenAiUpstream.Deadlines deadlines,
                                         Duration echoStreamDelay, Duration echoAnswerDelay, int echoAnswerTokens,
                                         ObjectMapper json, Clock clock) {
        return switch (kind.toLowerCase(Locale.ROOT)) {
            case "echo" -> new EchoUpstream(json, clock, echoStreamDelay, echoAnswerDelay, echoAnswerTokens);
            case "openai" -> {
                if (GatewayProperties.blank(baseUrl)) {
                    throw new IllegalStateException(where + ".base-url is needed for the openai upstream");
                }
                yield new OpenAiUpstream(baseUrl, apiKey, connectTimeout, deadlines, json);
            }
            default -> throw new IllegalStateException(where + ".kind must be echo, openai or http, not " + kind);
        };
    }

    /** The chat upstream of a chat model. */
    Upstream chat(PriceList.ModelRate model) {
        return chat.get(model.id());
    }

    /** The HTTP service of a service model; null for a chat model. */
    HttpServiceUpstream service(PriceList.ModelRate model) {
        return services.get(model.id());
    }
}
