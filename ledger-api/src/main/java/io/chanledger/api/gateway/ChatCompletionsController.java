package io.chanledger.api.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.chanledger.api.channels.command.VoucherJson;
import io.chanledger.api.web.HotPathJson;
import io.chanledger.domain.channel.RequestSettlement;
import io.chanledger.domain.channel.SignedVoucher;
import io.chanledger.domain.channel.VoucherReceipt;
import io.chanledger.domain.channel.VoucherRejectedException;
import io.chanledger.domain.channel.VoucherRejection;
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
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code POST /v1/chat/completions}, paid by the voucher in {@code X-CHAN-Voucher}. Without one:
 * 402 with the payment terms. With one: the request is checked (model, format) before the voucher
 * is touched, then the voucher is admitted by the ledger holding the request's input and a small
 * output allowance, the request goes upstream exactly as the client sent it, and the request is
 * settled at its actual cost. An answer that costs more than the voucher covers is charged what
 * the voucher covers and withheld. A failed upstream call is settled at zero: the voucher stays
 * accepted, nothing is charged. A call past its upstream's deadline is aborted and answered 504
 * {@code upstream_timeout}. Whatever ends a request, its hold is settled or released before the
 * request returns, so that it never blocks the channel (or its close) after the request.
 *
 * <p>A model of an HTTP service takes its parameters as a JSON object in the last user message.
 * They are checked against the model's schema (and its unit bounds) before the voucher is touched,
 * so invalid parameters cost nothing; the voucher is then admitted holding the request's price,
 * which is what it is charged once the service has answered, and nothing if it failed. The
 * answer is a chat completion whose assistant message is the service's result as JSON text.
 */
@RestController
@ConditionalOnGateway
class ChatCompletionsController {

    static final String VOUCHER_HEADER = "X-CHAN-Voucher";

    private static final Logger log = LoggerFactory.getLogger(ChatCompletionsController.class);

    private final PriceList prices;
    private final Upstreams upstreams;
    private final Metering metering;
    private final StreamRelay relay;
    private final PaymentTerms terms;
    private final ObjectMapper json;
    private final GatewayMetrics metrics;
    private final Clock clock;
    private final HotPathJson<ObjectNode> answerJson;

    ChatCompletionsController(PriceList prices, Upstreams upstreams, Metering metering, StreamRelay relay,
                              PaymentTerms terms, ObjectMapper json, GatewayMetrics metrics, Clock clock) {
        this.prices = prices;
        this.upstreams = upstreams;
        this.metering = metering;
        this.relay = relay;
        this.terms = terms;
        this.json = json;
        this.metrics = metrics;
        this.clock = clock;
        this.answerJson = HotPathJson.of(json, ObjectNode.class);
    }

    @PostMapping("/v1/chat/completions")
    void complete(@RequestHeader(name = VOUCHER_HEADER, required = false) String voucherHeader,
                  @RequestBody(required = false) byte[] body, HttpServletRequest request,
                  HttpServletResponse response) throws IOException {
        if (voucherHeader == null || voucherHeader.isBlank()) {
            metrics.request("voucher_required");
            throw new GatewayProblem(HttpStatus.PAYMENT_REQUIRED, "voucher_required",
                    "this API is paid per request with a Chan voucher in the X-CHAN-Voucher header; "
                            + "see X-Payment-Docs for how to open a channel and sign vouchers");
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
        SignedVoucher voucher = voucher(voucherHeader);
        VoucherReceipt receipt = metering.admit(voucher, rate.hold(chat.inputTokens(), chat.outputLimit()));
        if (chat.stream()) {
            relay.relay(upstream, chat, rate, receipt, response);
            return;
        }
        boolean settling = false;
        try {
            Upstream.Completion completion;
            try {
                completion = upstream.complete(chat);
            } catch (RuntimeException failure) {
                settling = true;
                metering.settle(receipt, BigInteger.ZERO);
                metrics.request(failureOutcome(failure));
                throw upstreamFailed(failure);
            }
            Upstream.Usage usage = completion.usage();
            BigInteger cost = usage != null ? rate.cost(usage.promptTokens(), usage.completionTokens())
                    : rate.cost(chat.inputTokens(), chat.tokenizer().count(completion.text()));
            settling = true;
            answer(metering.settle(receipt, cost), cost, completion.body(), response);
        } finally {
            if (!settling) {
                metering.release(receipt);
            }
        }
    }

    /**
     * Writes a settled request's answer, its body with the cost headers, or throws when the voucher
     * fell short and the answer is withheld. The body is written without the message converters
     * ({@link HotPathJson}).
     */
    private void answer(RequestSettlement settlement, BigInteger cost, ObjectNode body,
                                          HttpServletResponse response) throws IOException {
        metrics.charged(settlement.charged());
        HttpHeaders headers = costHeaders(settlement);
        if (settlement.shortfall()) {
            metrics.request("insufficient_funds_post");
            // the same meanings as on insufficient_funds: what this request needed, what the voucher left for it
            headers.set(GatewayExceptionHandler.REQUIRED_HEADER, cost.toString());
            headers.set(GatewayExceptionHandler.PROVIDED_HEADER, settlement.charged().toString());
            throw new GatewayProblem(HttpStatus.PAYMENT_REQUIRED, "insufficient_funds_post", "the answer cost " + cost
                    + " but the voucher covered only " + settlement.charged() + ", which was charged; the answer is "
                    + "withheld. Send vouchers with a larger buffer", headers.toSingleValueMap());
        }
        metrics.request("paid");
        headers.forEach((name, values) -> values.forEach(value -> response.addHeader(name, value)));
        answerJson.write(body, response);
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
        VoucherReceipt receipt = metering.admit(voucher(voucherHeader), cost);
        boolean settling = false;
        try {
            String content;
            try {
                content = service.call(parameters);
            } catch (RuntimeException failure) {
                settling = true;
                metering.settle(receipt, BigInteger.ZERO);
                metrics.request(failureOutcome(failure));
                log.warn("model {}: upstream {} failed: {}", rate.id(), service.name(),
                        failure instanceof Upstream.UpstreamException ? failure.getMessage()
                                : failure.getClass().getName());
                throw upstreamFailed(failure);
            }
            settling = true;
            answer(metering.settle(receipt, cost), cost, completion(rate.id(), content), response);
        } finally {
            if (!settling) {
                metering.release(receipt);
            }
        }
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

    static HttpHeaders costHeaders(RequestSettlement settlement) {
        HttpHeaders headers = new HttpHeaders();
        headers.set("X-CHAN-Cost", settlement.charged().toString());
        headers.set("X-CHAN-Total", settlement.chargedTotal().toString());
        headers.set("X-CHAN-Remaining", settlement.remaining().toString());
        headers.set("X-CHAN-Channel", settlement.channelId());
        return headers;
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

    private SignedVoucher voucher(String header) {
        JsonNode node;
        try {
            node = json.readTree(header);
        } catch (IOException e) {
            throw new VoucherRejectedException(VoucherRejection.INVALID_VOUCHER_FORMAT,
                    "X-CHAN-Voucher must be a JSON object with channelId, amount, nonce and signature");
        }
        return VoucherJson.parse(node, null);
    }
}
