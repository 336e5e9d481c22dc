package io.chanledger.api.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chanledger.api.channels.command.VoucherJson;
import io.chanledger.domain.channel.RequestSettlement;
import io.chanledger.domain.channel.SignedVoucher;
import io.chanledger.domain.channel.VoucherReceipt;
import io.chanledger.domain.channel.VoucherRejectedException;
import io.chanledger.domain.channel.VoucherRejection;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.math.BigInteger;
import java.util.Map;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
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
 * accepted, nothing is charged.
 */
@RestController
@ConditionalOnGateway
class ChatCompletionsController {

    static final String VOUCHER_HEADER = "X-CHAN-Voucher";

    private final PriceList prices;
    private final Upstream upstream;
    private final Metering metering;
    private final StreamRelay relay;
    private final PaymentTerms terms;
    private final ObjectMapper json;
    private final GatewayMetrics metrics;

    ChatCompletionsController(PriceList prices, Upstream upstream, Metering metering, StreamRelay relay,
                              PaymentTerms terms, ObjectMapper json, GatewayMetrics metrics) {
        this.prices = prices;
        this.upstream = upstream;
        this.metering = metering;
        this.relay = relay;
        this.terms = terms;
        this.json = json;
        this.metrics = metrics;
    }

    @PostMapping("/v1/chat/completions")
    ResponseEntity<Object> complete(@RequestHeader(name = VOUCHER_HEADER, required = false) String voucherHeader,
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
        SignedVoucher voucher = voucher(voucherHeader);
        VoucherReceipt receipt = metering.admit(voucher, rate.hold(chat.inputTokens(), chat.outputLimit()));
        if (chat.stream()) {
            relay.relay(chat, rate, receipt, response);
            return null;
        }
        Upstream.Completion completion;
        try {
            completion = upstream.complete(chat);
        } catch (RuntimeException failure) {
            metering.settle(receipt, BigInteger.ZERO);
            metrics.request("upstream_error");
            throw upstreamFailed(failure);
        }
        Upstream.Usage usage = completion.usage();
        BigInteger cost = usage != null ? rate.cost(usage.promptTokens(), usage.completionTokens())
                : rate.cost(chat.inputTokens(), chat.tokenizer().count(completion.text()));
        RequestSettlement settlement = metering.settle(receipt, cost);
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
        return ResponseEntity.ok().headers(headers).contentType(MediaType.APPLICATION_JSON).body(completion.body());
    }

    static HttpHeaders costHeaders(RequestSettlement settlement) {
        HttpHeaders headers = new HttpHeaders();
        headers.set("X-CHAN-Cost", settlement.charged().toString());
        headers.set("X-CHAN-Total", settlement.chargedTotal().toString());
        headers.set("X-CHAN-Remaining", settlement.remaining().toString());
        headers.set("X-CHAN-Channel", settlement.channelId());
        return headers;
    }

    static GatewayProblem upstreamFailed(RuntimeException failure) {
        String detail = failure instanceof Upstream.UpstreamException ? failure.getMessage() : "the upstream failed";
        return new GatewayProblem(HttpStatus.BAD_GATEWAY, "upstream_error", detail + "; nothing was charged",
                Map.of());
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
