package io.chanledger.api.provider.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.chanledger.api.config.ChainProperties;
import io.chanledger.api.provider.ProviderIdentity;
import io.chanledger.domain.eip712.Hex;
import io.chanledger.domain.provider.ProviderIds;
import io.chanledger.domain.provider.RegistrationMessage;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.HexFormat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.actuate.health.Status;

/**
 * Lists this provider at its marketplace when it starts: the registration the sign-up page sends
 * ({@code POST /api/directory/providers}), signed with the provider's wallet over the same text
 * ({@link RegistrationMessage}). The marketplace then tests the connection by reading this
 * gateway's {@code /v1/pricing}, so its models and prices are published from there. Once listed, a
 * restart (the way prices change) asks the marketplace to check it at once
 * ({@code POST /api/validator/probe-alert} with this gateway's {@code /v1/pricing} and
 * {@code reachable: true}), which publishes the models that changed; the marketplace's health
 * checks do the same on their own round. Only HTTP between the two: the marketplace's code is not
 * this role's.
 *
 * <p>What became of it is logged, at WARN when the marketplace refused or could not reach this
 * provider (its listing is then missing or out of date), and is this provider's health component
 * {@code marketplaceListing}: UP once listed and checked, UNKNOWN while under way, else the
 * outcome's name as a status of its own, which leaves the service's overall status alone (the
 * provider serves either way).
 */
final class MarketplaceListing implements HealthIndicator {

    private static final Logger log = LoggerFactory.getLogger(MarketplaceListing.class);
    private static final SecureRandom NONCES = new SecureRandom();
    private static final int ATTEMPTS = 5;
    /** Where this gateway publishes its models and prices, which the marketplace reads. */
    private static final String PRICING_PATH = "/v1/pricing";

    private final MarketplaceListingProperties listing;
    private final GatewayProperties gateway;
    private final ProviderIdentity identity;
    private final long chainId;
    private final ObjectMapper json;
    private final Clock clock;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    MarketplaceListing(MarketplaceListingProperties listing, GatewayProperties gateway, ProviderIdentity identity,
                       ChainProperties chain, ObjectMapper json, Clock clock) {
        if (GatewayProperties.blank(gateway.publicUrl())) {
            throw new IllegalStateException("chan.provider.marketplace-url needs chan.gateway.public-url: the address "
                    + "the marketplace and agents reach this provider at");
        }
        this.listing = listing;
        this.gateway = gateway;
        this.identity = identity;
        this.chainId = chain.chainId();
        this.json = json;
        this.clock = clock;
    }

    /**
     * What became of the listing. Listed: {@code REGISTERED}, or {@code RECHECKED} (already listed,
     * and the marketplace checked it again). Missing or out of date: {@code RECHECK_FAILED} (its
     * check of this provider failed), {@code RECHECK_REFUSED}, {@code REFUSED} (the registration),
     * {@code UNREACHABLE} (the marketplace).
     */
    enum Outcome {
        REGISTERED, RECHECKED, RECHECK_FAILED, RECHECK_REFUSED, REFUSED, UNREACHABLE;

        boolean listed() {
            return this == REGISTERED || this == RECHECKED;
        }
    }

    private volatile Health health = Health.unknown().withDetail("detail", "listing under way").build();

    @Override
    public Health health() {
        return health;
    }

    /** Registers, retrying a marketplace that does not answer yet; never throws. */
    Outcome list() {
        Duration pause = Duration.ofSeconds(2);
        for (int attempt = 1; ; attempt++) {
            try {
                return listOnce();
            } catch (IOException e) {
                if (attempt == ATTEMPTS) {
                    log.warn("marketplace {} unreachable, this provider is not listed there: {}", base(), e.toString());
                    return outcome(Outcome.UNREACHABLE, e.toString());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return outcome(Outcome.UNREACHABLE, "interrupted");
            }
            try {
                Thread.sleep(pause);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return outcome(Outcome.UNREACHABLE, "interrupted");
            }
            pause = pause.multipliedBy(2);
        }
    }

    private Outcome listOnce() throws IOException, InterruptedException {
        HttpResponse<String> answer = post("/api/directory/providers", registration());
        String code = member(answer.body(), "code");
        if (answer.statusCode() == 201) {
            String approval = member(answer.body(), "approval");
            log.info("listed at {} as {} ({})", base(), id(), approval);
            return outcome(Outcome.REGISTERED, approval);
        }
        if (answer.statusCode() == 409 && "address_already_registered".equals(code)) {
            return recheck();
        }
        log.warn("marketplace {} refused this provider's registration: {} {}", base(), answer.statusCode(),
                answer.body());
        return outcome(Outcome.REFUSED, answer.statusCode() + " " + answer.body());
    }

    /**
     * Already listed: asks the marketplace to read this provider's models and prices again. A
     * refusal, or a check that failed, leaves the listing as it was: out of date, which the log
     * and the health component say.
     */
    private Outcome recheck() throws IOException, InterruptedException {
        HttpResponse<String> check = post("/api/validator/probe-alert", json.createObjectNode()
                .put("providerId", id()).put("probeUrl", apiUrl() + PRICING_PATH).put("reachable", true));
        String detail = member(check.body(), "detail");
        if (check.statusCode() != 202) {
            log.warn("already listed at {} as {}, but it refused to check this provider again, so the models and "
                    + "prices it lists may be out of date: {} {}", base(), id(), check.statusCode(), check.body());
            return outcome(Outcome.RECHECK_REFUSED, check.statusCode() + " " + check.body());
        }
        if ("true".equals(member(check.body(), "probed")) && !"true".equals(member(check.body(), "reachable"))) {
            log.warn("already listed at {} as {}, but its check of this provider at {} failed, so the models and "
                    + "prices it lists may be out of date: {}", base(), id(), apiUrl(), detail);
            return outcome(Outcome.RECHECK_FAILED, detail);
        }
        log.info("already listed at {} as {}; asked it to check this provider's models and prices now: {}", base(),
                id(), detail);
        return outcome(Outcome.RECHECKED, detail);
    }

    private Outcome outcome(Outcome outcome, String detail) {
        Health.Builder builder = outcome.listed() ? Health.up() : Health.status(new Status(outcome.name()));
        health = builder.withDetail("marketplace", base()).withDetail("providerId", id())
                .withDetail("outcome", outcome.name()).withDetail("detail", detail == null ? "" : detail)
                .withDetail("at", clock.instant().toString()).build();
        return outcome;
    }

    /** The sign-up page's body, every signed value exactly as sent. */
    ObjectNode registration() {
        byte[] random = new byte[12];
        NONCES.nextBytes(random);
        String nonce = HexFormat.of().formatHex(random);
        String issuedAt = clock.instant().truncatedTo(ChronoUnit.SECONDS).toString();
        String address = identity.checksumAddress();
        ObjectNode body = json.createObjectNode();
        body.put("name", gateway.name());
        body.put("description", GatewayProperties.blank(gateway.description()) ? gateway.name() : gateway.description());
        body.put("apiUrl", apiUrl());
        body.put("providerAddress", address);
        body.put("category", listing.category());
        body.put("docsUrl", apiUrl() + "/v1/docs");
        if (listing.contactEmail() != null && !listing.contactEmail().isBlank()) {
            body.put("contactEmail", listing.contactEmail());
        }
        body.put("nonce", nonce);
        body.put("issuedAt", issuedAt);
        RegistrationMessage message = new RegistrationMessage(address, apiUrl(), chainId, nonce, issuedAt);
        body.put("signature", Hex.encode(identity.signer().sign(message.digest())));
        return body;
    }

    private HttpResponse<String> post(String path, JsonNode body) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(base() + path)).timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json.writeValueAsString(body))).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** A text member of a JSON answer; null when absent or the answer is not JSON. */
    private String member(String body, String name) {
        try {
            return json.readTree(body).path(name).asText(null);
        } catch (IOException notJson) {
            return null;
        }
    }

    private String id() {
        return ProviderIds.forAddress(identity.address());
    }

    private String apiUrl() {
        return strip(gateway.publicUrl());
    }

    private String base() {
        return strip(listing.marketplaceUrl());
    }

    private static String strip(String url) {
        String trimmed = url.trim();
        return trimmed.endsWith("/") ? trimmed.substring(0, trimmed.length() - 1) : trimmed;
    }
}
