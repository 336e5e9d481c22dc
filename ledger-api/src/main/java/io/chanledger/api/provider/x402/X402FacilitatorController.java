package io.chanledger.api.provider.x402;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.chanledger.api.provider.gateway.ConditionalOnGateway;
import io.chanledger.api.provider.x402.X402Settlement.Reservation;
import io.chanledger.api.provider.x402.X402Settlement.Settlement;
import io.chanledger.api.provider.x402.X402Settlement.Verification;
import io.chanledger.domain.money.Uint256;
import java.math.BigInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Conditional;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * The provider's facilitator over HTTP, as x402's facilitator API defines it, so that a stock
 * resource server ({@code @x402/express}) of the provider's own configured with
 * {@code {base}/x402/facilitator} is paid into the provider's wallet: {@code POST /verify},
 * {@code POST /settle}, {@code GET /supported}. Only payments to this provider's wallet in its token
 * are verified and settled, each at most once; {@code /settle} does the whole of verify, reserve and
 * settle in one call, and a payment settled (or being settled) before gets a failure naming
 * {@code invalid_transaction_state}, never a second success. Every answer is 200 with the outcome
 * in the body (a refusal carries the spec's reason), but a body that is not a JSON object: 400.
 */
@RestController
@ConditionalOnGateway
@Conditional(X402Configured.class)
@ConditionalOnProperty(prefix = "chan.gateway.x402.facilitator", name = "endpoints", havingValue = "true",
        matchIfMissing = true)
class X402FacilitatorController {

    static final String PREFIX = "/x402/facilitator";
    /** What a settlement through the HTTP facilitator is recorded as sold for: no model of the gateway's. */
    static final String SOLD_AS = "x402-facilitator";

    private static final Logger log = LoggerFactory.getLogger(X402FacilitatorController.class);

    private final ProviderFacilitator facilitator;
    private final X402Codec codec = new X402Codec();
    private final ObjectMapper json;
    private final BigInteger minAmount;

    X402FacilitatorController(ProviderFacilitator facilitator, ObjectMapper json, X402FacilitatorProperties settings) {
        this.facilitator = facilitator;
        this.json = json;
        this.minAmount = settings.minAmount();
    }

    @GetMapping(path = PREFIX + "/supported", produces = MediaType.APPLICATION_JSON_VALUE)
    ObjectNode supported() {
        ObjectNode answer = json.createObjectNode();
        answer.putArray("kinds")
                .add(json.createObjectNode().put("x402Version", 2).put("scheme", X402Network.SCHEME_EXACT)
                        .put("network", X402Network.V2_NAME))
                .add(json.createObjectNode().put("x402Version", 1).put("scheme", X402Network.SCHEME_EXACT)
                        .put("network", X402Network.V1_NAME));
        answer.putArray("extensions");
        answer.putObject("signers").putArray("eip155:*").add(facilitator.payTo());
        return answer;
    }

    @PostMapping(path = PREFIX + "/verify", produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<ObjectNode> verify(@RequestBody(required = false) byte[] body) {
        Request request;
        try {
            request = read(body);
        } catch (X402Refusal refusal) {
            return ResponseEntity.status(unreadable(refusal) ? 400 : 200).body(invalid(refusal.reason(), null,
                    refusal.detail()));
        }
        Verification verification = checked(request);
        return ResponseEntity.ok(switch (verification) {
            case Verification.Valid valid -> json.createObjectNode().put("isValid", true).put("payer", valid.payer());
            case Verification.Invalid invalid -> invalid(invalid.reason(), invalid.payer(), invalid.detail());
        });
    }

    @PostMapping(path = PREFIX + "/settle", produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<ObjectNode> settle(@RequestBody(required = false) byte[] body) {
        Request request;
        try {
            request = read(body);
        } catch (X402Refusal refusal) {
            return ResponseEntity.status(unreadable(refusal) ? 400 : 200).body(failure(
                    SettlementResponse.failed(refusal.reason(), null, null, X402Network.V2_NAME), refusal.detail()));
        }
        String network = request.requirements().network();
        Verification verification = checked(request);
        if (verification instanceof Verification.Invalid invalid) {
            return ResponseEntity.ok(failure(SettlementResponse.failed(invalid.reason(), invalid.payer(), null, network),
                    invalid.detail()));
        }
        Verification.Valid valid = (Verification.Valid) verification;
        String payer = valid.payer();
        return ResponseEntity.ok(switch (facilitator.reserve(valid)) {
            case Reservation.Reserved reserved -> switch (facilitator.settle(reserved, SOLD_AS)) {
                case Settlement.Settled settled -> codec.settlementJson(SettlementResponse.settled(payer,
                        settled.transaction(), network, settled.amount()));
                case Settlement.Failed failed -> failure(SettlementResponse.failed(failed.reason(), payer,
                        failed.transaction(), network), failed.detail());
                case Settlement.Pending pending -> failure(SettlementResponse.failed(X402Reason.SETTLEMENT_PENDING, payer,
                        pending.transaction(), network), "sent; the receipt is not there yet");
            };
            case Reservation.AlreadySettled already -> failure(SettlementResponse.failed(
                    X402Reason.INVALID_TRANSACTION_STATE, payer, already.record().transaction(), network),
                    "this payment was settled before");
            case Reservation.InProgress busy -> failure(SettlementResponse.failed(X402Reason.INVALID_TRANSACTION_STATE,
                    payer, busy.record().transaction(), network), "this payment is being settled");
            case Reservation.Refused refused -> failure(SettlementResponse.failed(refused.reason(), payer, null, network),
                    refused.detail());
        });
    }

    private record Request(PaymentPayload payload, PaymentRequirements requirements) {
    }

    private Request read(byte[] body) {
        JsonNode root = codec.readJson(body);
        int version = codec.version(root.get("x402Version"));
        PaymentRequirements requirements = codec.requirements(root.get("paymentRequirements"), version);
        return new Request(codec.payload(root.get("paymentPayload"), version), requirements);
    }

    /**
     * The facilitator's verification, plus what the HTTP API adds: a payment this provider holds
     * already is not valid again (a resource server would otherwise serve it twice), and a payment
     * below the minimum is not worth its gas.
     */
    private Verification checked(Request request) {
        Verification verification = facilitator.verify(request.payload(), request.requirements());
        if (!(verification instanceof Verification.Valid valid)) {
            return verification;
        }
        if (request.requirements().amount().compareTo(minAmount) < 0) {
            return new Verification.Invalid(X402Reason.INVALID_PAYMENT_REQUIREMENTS, valid.payer(),
                    "this facilitator settles payments of at least " + Uint256.decimal(minAmount) + " base units");
        }
        return facilitator.lookup(valid.key())
                .filter(record -> record.status() != X402Settlement.PaymentStatus.RELEASED)
                .<Verification>map(record -> new Verification.Invalid(X402Reason.INVALID_TRANSACTION_STATE, valid.payer(),
                        "this payment was used here before"))
                .orElse(verification);
    }

    private static boolean unreadable(X402Refusal refusal) {
        return refusal.reason() == X402Reason.INVALID_PAYLOAD && refusal.detail().startsWith("the request body");
    }

    private ObjectNode invalid(X402Reason reason, String payer, String detail) {
        log.debug("x402 facilitator: verify refused ({}): {}", reason.code(), detail);
        ObjectNode answer = json.createObjectNode().put("isValid", false).put("invalidReason", reason.code());
        if (detail != null) {
            answer.put("invalidMessage", detail);
        }
        if (payer != null) {
            answer.put("payer", payer);
        }
        return answer;
    }

    private ObjectNode failure(SettlementResponse response, String detail) {
        ObjectNode answer = codec.settlementJson(response);
        if (detail != null) {
            answer.put("errorMessage", detail);
        }
        return answer;
    }
}
