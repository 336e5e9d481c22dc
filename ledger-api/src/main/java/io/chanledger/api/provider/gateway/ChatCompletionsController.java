package io.chanledger.api.provider.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.chanledger.api.ledger.channels.command.VoucherJson;
import io.chanledger.api.http.HotPathJson;
import io.chanledger.api.provider.x402.PaymentPayload;
import io.chanledger.api.provider.x402.PaymentRequired;
import io.chanledger.api.provider.x402.X402Codec;
import io.chanledger.api.provider.x402.X402Reason;
import io.chanledger.api.provider.x402.X402Refusal;
import io.chanledger.domain.channel.VoucherRejectedException;
import io.chanledger.domain.channel.VoucherRejection;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.enums.ParameterIn;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.math.BigInteger;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code POST /v1/chat/completions}, paid by the voucher in {@code X-CHAN-Voucher}. Without one:
 * 402 with the payment terms. With one: the request is checked (model, format) before the voucher
 * is touched, then the voucher is admitted by the ledger holding the request's input and a small
 * output allowance, the request goes upstream exactly as the client sent it, and the request is
 * settled at its actual cost. An answer that costs more than the voucher covers is delivered and
 * charged what the voucher covers. A failed upstream call, and a 200 that is not an answer (an
 * error object, no message content; a service's empty, non-JSON or error answer, or one its
 * model's answer schema refuses: {@link HttpServiceUpstream}), is settled at zero: the
 * voucher stays accepted, nothing is charged. A call past its upstream's deadline is aborted and
 * answered 504 {@code upstream_timeout}. Whatever ends a request, its hold is settled or released
 * before the request returns, so that it never blocks the channel (or its close) after it.
 *
 * <p>A paid answer is kept by its voucher ({@link PaidAnswers}) in the commit that charges it: the
 * same voucher sent again within the retention gets that answer again, with the same cost headers
 * and {@code X-CHAN-Replay: true}, and is charged nothing. So an agent that gave up waiting, or
 * lost its connection, re-sends the voucher to have the answer it paid for. Every answer carries
 * an OpenAI {@code usage} object.
 *
 * <p>A model of an HTTP service takes its parameters as a JSON object in the last user message.
 * They are checked against the model's schema (and its unit bounds) before the voucher is touched,
 * so invalid parameters cost nothing; the voucher is then admitted holding the request's price,
 * which is what it is charged once the service has answered, and nothing if it failed. The
 * answer is a chat completion whose assistant message is the service's result as JSON text.
 *
 * <p>A request may be paid with x402 instead ({@code PAYMENT-SIGNATURE}, {@code X-PAYMENT}) where
 * its price is known before the call ({@link X402Offers}); the unpaid answer offers it. Either way
 * the request runs through the same {@link PaidCall}, with the way of paying as its parameter
 * ({@link VoucherPayment}, {@link X402Payment}).
 */
@RestController
class ChatCompletionsController {

    static final String VOUCHER_HEADER = "X-CHAN-Voucher";

    private static final Logger log = LoggerFactory.getLogger(ChatCompletionsController.class);

    private final PriceList prices;
    private final Upstreams upstreams;
    private final Metering metering;
    private final PaidCall paidCall;
    private final PaymentTerms terms;
    private final ObjectMapper json;
    private final GatewayMetrics metrics;
    private final Clock clock;
    private final PaidAnswers answers;
    private final X402Offers offers;

    ChatCompletionsController(PriceList prices, Upstreams upstreams, Metering metering, PaidCall paidCall,
                              PaymentTerms terms, ObjectMapper json, GatewayMetrics metrics, Clock clock,
                              PaidAnswers answers, X402Offers offers) {
        this.prices = prices;
        this.upstreams = upstreams;
        this.metering = metering;
        this.paidCall = paidCall;
        this.terms = terms;
        this.json = json;
        this.metrics = metrics;
        this.clock = clock;
        this.answers = answers;
        this.offers = offers;
    }

    /**
     * The voucher header and the body are read from the request itself, not resolved by Spring MVC
     * (its header arguments go through the conversion service, its bodies through the message
     * converters, for every paid request); the annotations describe the exchange to OpenAPI as the
     * resolved arguments did. The body is read first, as argument resolution read it.
     */
    @PostMapping("/v1/chat/completions")
    @Parameter(in = ParameterIn.HEADER, name = VOUCHER_HEADER, schema = @Schema(type = "string"))
    @io.swagger.v3.oas.annotations.parameters.RequestBody(content = @Content(
            mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(type = "string", format = "byte")))
    void complete(@Parameter(hidden = true) HttpServletRequest request,
                  @Parameter(hidden = true) HttpServletResponse response) throws IOException {
        byte[] body = HotPathJson.bodyBytes(request);
        String voucherHeader = request.getHeader(VOUCHER_HEADER);
        if (blank(voucherHeader) && blank(request.getHeader(X402Codec.PAYMENT_SIGNATURE))
                && blank(request.getHeader(X402Codec.X_PAYMENT))) {
            metrics.request("voucher_required");
            throw paymentRequired(body, request);
        }
        ChatRequest chat = ChatRequest.parse(body, json);
        PriceList.ModelRate rate = prices.model(chat.model()).orElseThrow(() -> GatewayProblem.badRequest(
                "model_not_supported", "model " + chat.model() + " is not served here; see /v1/models"));
        HttpServiceUpstream service = upstreams.service(rate);
        if (service != null) {
            serve(service, rate, chat, voucherHeader, request, response);
            return;
        }
        Upstream upstream = upstreams.chat(rate);
        BigInteger hold = rate.hold(chat.inputTokens(), chat.outputLimit());
        Payment payment = payment(voucherHeader, request, rate, hold, chat.stream());
        if (chat.stream()) {
            paidCall.stream(payment, hold, upstream, chat, rate, response);
            return;
        }
        paidCall.answer(payment, hold, rate.id(), () -> {
            Upstream.Completion completion = upstream.complete(chat);
            ObjectNode answer = completion.body();
            String text = answerText(answer);
            if (text == null) {
                log.warn("model {}: the upstream answered 200 without an answer", rate.id());
                throw new Upstream.UpstreamException("the upstream answered without an answer (an error or no "
                        + "message content)", null);
            }
            Upstream.Usage usage = billedUsage(completion.usage(), chat.inputTokens(), chat.tokenizer().count(text));
            putUsage(answer, usage);
            return new PaidCall.Answered(rate.cost(usage.promptTokens(), usage.completionTokens()), answer);
        }, response);
    }

    /**
     * The text of a chat answer: its first choice's message content, or the JSON text of its tool
     * calls; null when the body is not an answer (an {@code error} object, no message, a content
     * that is not a string without tool calls), which costs nothing.
     */
    static String answerText(JsonNode body) {
        JsonNode error = body.get("error");
        if (error != null && !error.isNull()) {
            return null;
        }
        JsonNode message = body.path("choices").path(0).path("message");
        JsonNode content = message.get("content");
        if (content != null && content.isTextual()) {
            return content.textValue();
        }
        JsonNode toolCalls = message.get("tool_calls");
        if (toolCalls != null && toolCalls.isArray() && !toolCalls.isEmpty()) {
            return toolCalls.toString();
        }
        return null;
    }

    /**
     * The token counts a whole answer is charged for: the upstream's reported usage, but never
     * more than what the gateway can see was sent and delivered, its own counts of the request's
     * input and of the answer's text with the model's tokenizer, with a quarter and 16 tokens of
     * slack for a model whose tokenizer counts differently. An upstream that reports inflated
     * usage cannot charge the agent for tokens it never received; one that reports none is
     * charged the gateway's counts.
     */
    static Upstream.Usage billedUsage(Upstream.Usage reported, long countedInput, long countedOutput) {
        if (reported == null) {
            return new Upstream.Usage(countedInput, countedOutput);
        }
        return new Upstream.Usage(Math.min(reported.promptTokens(), withSlack(countedInput)),
                Math.min(reported.completionTokens(), withSlack(countedOutput)));
    }

    private static long withSlack(long counted) {
        return counted + counted / 4 + 16;
    }

    /** Puts the OpenAI {@code usage} object with the token counts the request was billed on. */
    static void putUsage(ObjectNode body, Upstream.Usage usage) {
        JsonNode existing = body.get("usage");
        ObjectNode target = existing instanceof ObjectNode object ? object : body.putObject("usage");
        target.put("prompt_tokens", usage.promptTokens())
                .put("completion_tokens", usage.completionTokens())
                .put("total_tokens", usage.promptTokens() + usage.completionTokens());
    }

    private void serve(HttpServiceUpstream service, PriceList.ModelRate rate, ChatRequest chat,
                                         String voucherHeader, HttpServletRequest request,
                                         HttpServletResponse response) throws IOException {
        if (chat.stream()) {
            metrics.request("invalid_request");
            throw GatewayProblem.badRequest("stream_not_supported", "model " + rate.id() + " answers whole, not as a "
                    + "stream: send \"stream\": false or leave it out");
        }
        ObjectNode parameters = parameters(rate, chat, request);
        BigInteger cost = rate.serviceCost(parameters);
        paidCall.answer(payment(voucherHeader, request, rate, cost, false), cost, rate.id(), () -> {
            String content;
            try {
                content = service.call(parameters, rate.service());
            } catch (RuntimeException failure) {
                log.warn("model {}: upstream {} failed: {}", rate.id(), service.name(),
                        failure instanceof Upstream.UpstreamException ? failure.getMessage()
                                : failure.getClass().getName());
                throw failure;
            }
            ObjectNode body = completion(rate.id(), content);
            // a service is not priced per token: its usage counts, with the model's tokenizer, the
            // parameters sent and the result answered, for clients that read usage after each request
            putUsage(body, new Upstream.Usage(chat.tokenizer().count(chat.lastUserText()),
                    chat.tokenizer().count(content)));
            return new PaidCall.Answered(cost, body);
        }, response);
    }

    /**
     * The unpaid answer: the channel terms (the payment discovery headers, added by the exception
     * handler) and, for a request whose price is known before the call and that x402's
     * {@code exact} is offered for, x402's offer for that price: v2's {@code PAYMENT-REQUIRED}
     * header and v1's {@code x402Version} and {@code accepts} beside the {@code error} object. A
     * request that is not a valid paid request (unreadable, unknown model, invalid parameters) is
     * offered the channel terms only, as before: it is refused with its reason once it is paid for.
     */
    private GatewayProblem paymentRequired(byte[] body, HttpServletRequest request) {
        String message = "this API is paid per request with a Chan voucher in the X-CHAN-Voucher header; "
                + "see X-Payment-Docs for how to open a channel and sign vouchers";
        ChatRequest chat;
        try {
            chat = ChatRequest.parse(body, json);
        } catch (RuntimeException unreadable) {
            return new GatewayProblem(HttpStatus.PAYMENT_REQUIRED, "voucher_required", message);
        }
        PriceList.ModelRate rate = prices.model(chat.model()).orElse(null);
        BigInteger price = rate == null || !offers.offered(rate) || chat.stream() ? null : knownPrice(rate, chat);
        if (price == null) {
            return new GatewayProblem(HttpStatus.PAYMENT_REQUIRED, "voucher_required", message);
        }
        PaymentRequired required = offers.required(terms.baseUrl(request) + "/v1/chat/completions",
                "model " + rate.id() + ": " + rate.name(), price);
        return offers.paymentRequired("voucher_required", message + "; or with x402, scheme exact, as the "
                + "PAYMENT-REQUIRED header (v2) and accepts (v1) offer", required, Map.of());
    }

    /** The price of a request of a model priced before the call; null when its parameters are not valid. */
    private BigInteger knownPrice(PriceList.ModelRate rate, ChatRequest chat) {
        if (upstreams.service(rate) == null) {
            return rate.cost(chat.inputTokens(), 0);
        }
        JsonNode parameters;
        try {
            parameters = json.readTree(chat.lastUserText());
        } catch (IOException notJson) {
            return null;
        }
        if (!(parameters instanceof ObjectNode object) || !rate.service().violations(object).isEmpty()
                || rate.unitsProblem(object) != null) {
            return null;
        }
        return rate.serviceCost(object);
    }

    /** The last user message's content as the model's parameters, checked against its declaration. */
    private ObjectNode parameters(PriceList.ModelRate rate, ChatRequest chat, HttpServletRequest request) {
        String docs = terms.baseUrl(request) + "/v1/docs";
        JsonNode parameters;
        try {
            parameters = json.readTree(chat.lastUserText());
        } catch (IOException notJson) {
            parameters = null;
        }
        if (!(parameters instanceof ObjectNode object)) {
            metrics.request("invalid_parameters");
            throw GatewayProblem.badRequest("invalid_parameters", "model " + rate.id() + " takes its parameters as a "
                    + "JSON object in the last user message's content, e.g. " + rate.service().example()
                    + "; see " + docs);
        }
        List<String> violations = rate.service().violations(object);
        String units = violations.isEmpty() ? rate.unitsProblem(object) : null;
        if (!violations.isEmpty() || units != null) {
            metrics.request("invalid_parameters");
            throw GatewayProblem.badRequest("invalid_parameters", "invalid parameters for model " + rate.id() + ": "
                    + (units != null ? units : ServiceParameters.describe(violations)) + "; nothing was charged. See "
                    + docs);
        }
        return object;
    }

    private ObjectNode completion(String model, String content) {
        ObjectNode body = json.createObjectNode();
        body.put("id", "chatcmpl-" + UUID.randomUUID().toString().replace("-", ""));
        body.put("object", "chat.completion");
        body.put("created", clock.instant().getEpochSecond());
        body.put("model", model);
        ObjectNode choice = body.putArray("choices").addObject();
        choice.put("index", 0);
        choice.putObject("message").put("role", "assistant").put("content", content);
        choice.put("finish_reason", "stop");
        return body;
    }

    /** A failed upstream call, settled at zero: 504 {@code upstream_timeout} past a deadline, else 502. */
    static GatewayProblem upstreamFailed(RuntimeException failure) {
        String detail = failure instanceof Upstream.UpstreamException ? failure.getMessage() : "the upstream failed";
        return timedOut(failure)
                ? new GatewayProblem(HttpStatus.GATEWAY_TIMEOUT, "upstream_timeout", detail
                        + "; the call was aborted and nothing was charged", Map.of())
                : new GatewayProblem(HttpStatus.BAD_GATEWAY, "upstream_error", detail + "; nothing was charged",
                        Map.of());
    }

    /** The request outcome a failed upstream call is counted as. */
    static String failureOutcome(RuntimeException failure) {
        return timedOut(failure) ? "upstream_timeout" : "upstream_error";
    }

    static boolean timedOut(RuntimeException failure) {
        return failure instanceof Upstream.UpstreamException upstream && upstream.timedOut();
    }

    /**
     * How the request is paid: by its channel voucher when it has one, else by its x402 payment
     * ({@code PAYMENT-SIGNATURE}, v2, else {@code X-PAYMENT}, v1) for {@code price}, the price of
     * a request whose price is known before the call. An x402 payment for a model not offered
     * {@code exact}, or asking for a stream (x402 pays for an answer before it is delivered), is
     * refused before anything is checked on chain; an unreadable one with its spec reason.
     */
    private Payment payment(String voucherHeader, HttpServletRequest request, PriceList.ModelRate rate,
                            BigInteger price, boolean stream) {
        if (!blank(voucherHeader)) {
            return voucherPayment(voucherHeader);
        }
        String v2 = request.getHeader(X402Codec.PAYMENT_SIGNATURE);
        int version = blank(v2) ? 1 : 2;
        if (!offers.offered(rate)) {
            metrics.request("x402_refused");
            throw offers.refused(X402Reason.INVALID_PAYMENT_REQUIREMENTS, "model " + rate.id() + " is not sold for "
                    + "x402 exact (its price is known only after the answer, or is below the provider's minimum): "
                    + "pay for it with a channel voucher", null, null, null, null, version);
        }
        if (stream) {
            metrics.request("invalid_request");
            throw GatewayProblem.badRequest("stream_not_supported", "an x402 payment pays for a whole answer before it "
                    + "is delivered: send \"stream\": false, or pay with a channel voucher to stream");
        }
        String url = terms.baseUrl(request) + "/v1/chat/completions";
        String description = "model " + rate.id() + ": " + rate.name();
        PaymentPayload payload;
        try {
            payload = version == 2 ? offers.codec().decodePaymentSignature(v2)
                    : offers.codec().decodeXPayment(request.getHeader(X402Codec.X_PAYMENT));
        } catch (X402Refusal refusal) {
            metrics.request("x402_refused");
            throw offers.refused(refusal.reason(), refusal.detail(), url, description, price, null, version);
        }
        return new X402Payment(payload, offers.exact(price), offers, answers, metrics, url, description);
    }

    private static boolean blank(String header) {
        return header == null || header.isBlank();
    }

    private Payment voucherPayment(String header) {
        JsonNode node;
        try {
            node = json.readTree(header);
        } catch (IOException e) {
            throw new VoucherRejectedException(VoucherRejection.INVALID_VOUCHER_FORMAT,
                    "X-CHAN-Voucher must be a JSON object with channelId, amount, nonce and signature");
        }
        return new VoucherPayment(VoucherJson.parse(node, null), metering, answers, metrics);
    }
}
