package io.chanledger.api.marketplace.directory;

import io.chanledger.api.config.ChainProperties;
import io.chanledger.api.http.ApiProblem;
import io.chanledger.domain.eip712.Hex;
import io.chanledger.domain.eip712.SignatureVerdict;
import io.chanledger.domain.provider.ProviderIds;
import io.chanledger.domain.provider.ProviderTier;
import io.chanledger.domain.provider.RecordProviderInference;
import io.chanledger.domain.provider.RegisterProvider;
import io.chanledger.domain.provider.RegistrationMessage;
import io.chanledger.projections.marketplace.MarketplaceCatalog;
import io.chanledger.projections.marketplace.ProviderHealthStore;
import io.chanledger.projections.marketplace.ProviderView;
import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.eventsourcing.eventstore.EventStore;
import org.axonframework.modelling.command.AggregateStreamCreationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Service;
import org.springframework.lang.Nullable;

/**
 * Registers a provider: the wallet signature first (cheap, and it proves the address), then the
 * nonce, then the connection test (up to 10 s of someone else's server), then the command. The
 * address check before the test only saves the test; the event store refuses a second
 * registration of the address whatever the timing (see {@code ProviderIds}).
 *
 * <p>Whether this service may call the apiUrl at all is judged within the connection test, on the
 * addresses it then connects to, and a refusal answers exactly as a host that does not accept the
 * connection: {@value ProbeFailure#UNREACHABLE}, after the nonce is taken, in both cases. A
 * provider under the name of one registered before it waits for the operator, bittensor miners
 * too, and is flagged in the directory ({@link ProviderNames}).
 */
@Service
class ProviderRegistration {

    private static final Logger log = LoggerFactory.getLogger(ProviderRegistration.class);

    /** How long an answer waits for the directory to show what the request changed. */
    static final Duration READ_YOUR_WRITE = Duration.ofSeconds(2);

    /** What the registrant is told: where the provider stands now. */
    /** {@code online}: shown to agents once approved; false with {@code inferenceError} when the chat probe failed. */
    @Schema(name = "RegistrationOutcome")
    record Outcome(String id, String providerAddress, String approval, boolean online, @Nullable String inferenceError,
                   int models, long latencyMs, String directoryUrl) {
    }

    private final CommandGateway commands;
    private final EventStore eventStore;
    private final ProviderProbe probe;
    private final RegistrationNonces nonces;
    private final ProviderContacts contacts;
    private final ProviderHealthStore health;
    private final MarketplaceCatalog catalog;
    private final MarketplaceProperties properties;
    private final long chainId;
    private final Clock clock;

    ProviderRegistration(CommandGateway commands, EventStore eventStore, ProviderProbe probe, RegistrationNonces nonces,
                         ProviderContacts contacts, ProviderHealthStore health, MarketplaceCatalog catalog,
                         MarketplaceProperties properties, ChainProperties chain, Clock clock) {
        this.commands = commands;
        this.eventStore = eventStore;
        this.probe = probe;
        this.nonces = nonces;
        this.contacts = contacts;
        this.health = health;
        this.catalog = catalog;
        this.properties = properties;
        this.chainId = chain.chainId();
        this.clock = clock;
    }

    Outcome register(RegistrationRequest request) {
        Instant now = clock.instant();
        verifySignature(request, now);
        String providerId = ProviderIds.forAddress(request.address());
        if (eventStore.lastSequenceNumberFor(providerId).isPresent()) {
            throw alreadyRegistered(request, providerId);
        }
        if (!nonces.take(request.address(), request.nonce(), now)) {
            throw new ApiProblem(HttpStatus.CONFLICT, "nonce_already_used",
                    "nonce: this signed registration was used before; sign a new message with a fresh nonce",
                    Map.of("field", "nonce"));
        }
        ProviderProbe.ConnectionTest test;
        try {
            test = probe.connectionTest(request.apiUrl(), request.address(),
                    properties.registration().connectionTimeout());
        } catch (ProbeFailure e) {
            if (e.detail() != null) {
                log.info("registration of {}: apiUrl not reached: {}", providerId, e.detail());
            }
            throw connectionTestFailed(request, e);
        }
        ProviderProbe.Answer answer = test.answer();
        Instant registeredAt = clock.instant();
        Optional<String> namesake = ProviderNames.holder(catalog.current().providers(), request.name())
                .map(ProviderView::id);
        boolean autoApprove = request.tier() == ProviderTier.BITTENSOR && properties.autoApproveBittensor()
                && namesake.isEmpty();
        try {
            commands.sendAndWait(new RegisterProvider(providerId, request.address(), request.name(),
                    request.description(), request.apiUrl().toString(), request.category(),
                    request.additionalCategories(), request.tier(), request.hotkey(), request.uid(), request.docsUrl(),
                    answer.models(), registeredAt, autoApprove, request.profile()));
        } catch (AggregateStreamCreationException e) {
            throw alreadyRegistered(request, providerId);
        }
        namesake.ifPresent(first -> log.warn("provider {} registered under the name of provider {}: it waits for "
                + "the operator's approval, flagged duplicateNameOf in the directory", providerId, first));
        if (request.contact() != null || request.contactEmail() != null) {
            contacts.save(providerId, request.contact(), request.contactEmail(), registeredAt);
        }
        boolean inferenceUp = test.chatProbeFailure() == null;
        health.recordSuccess(providerId, registeredAt, answer.latencyMs(), inferenceUp);
        health.recordInference(providerId, test.chatProbeFailure());
        if (inferenceUp) {
            // the connection test is the first health check of both sides; a failed chat probe leaves
            // the inference side as it starts, down, until a health check finds it up
            commands.sendAndWait(new RecordProviderInference(providerId, true, null, 0, registeredAt));
        }
        health.markChanged();
        catalog.requestRefresh();
        catalog.awaitSnapshot(snapshot -> snapshot.find(providerId).isPresent(), READ_YOUR_WRITE);
        return new Outcome(providerId, Hex.toChecksumAddress(request.address()), autoApprove ? "approved" : "pending",
                inferenceUp, test.chatProbeFailure(), answer.models().size(), answer.latencyMs(),
                properties.directoryUrl() + "/" + providerId);
    }

    private void verifySignature(RegistrationRequest request, Instant now) {
        RegistrationMessage message = new RegistrationMessage(request.signedAddress(), request.signedApiUrl(), chainId,
                request.nonce(), request.signedIssuedAt());
        SignatureVerdict verdict = message.recover(request.signature());
        if (verdict instanceof SignatureVerdict.Rejected(var reason)) {
            throw new ApiProblem(HttpStatus.BAD_REQUEST, "invalid_signature",
                    "signature: not a valid wallet signature (" + reason.code() + ")", Map.of("field", "signature"));
        }
        String signer = ((SignatureVerdict.Recovered) verdict).signer();
        if (!signer.equals(request.address())) {
            throw new ApiProblem(HttpStatus.BAD_REQUEST, "wrong_signer", "signature: the registration message was signed by "
                    + Hex.toChecksumAddress(signer) + ", not by providerAddress " + Hex.toChecksumAddress(request.address())
                    + " (check that the signed text matches the documented format)", Map.of("field", "signature"));
        }
        if (request.issuedAt().isBefore(now.minus(properties.registration().signatureMaxAge()))) {
            throw new ApiProblem(HttpStatus.BAD_REQUEST, "signature_expired", "issuedAt: the signed registration is older than "
                    + properties.registration().signatureMaxAge().toMinutes() + " minutes; sign a new one",
                    Map.of("field", "issuedAt"));
        }
        if (request.issuedAt().isAfter(now.plus(properties.registration().signatureMaxSkew()))) {
            throw new ApiProblem(HttpStatus.BAD_REQUEST, "signature_from_the_future",
                    "issuedAt: lies in the future; check the signing machine's clock", Map.of("field", "issuedAt"));
        }
    }

    private static ApiProblem alreadyRegistered(RegistrationRequest request, String providerId) {
        return new ApiProblem(HttpStatus.CONFLICT, "address_already_registered", "providerAddress: "
                + Hex.toChecksumAddress(request.address()) + " is already registered as " + providerId,
                Map.of("field", "providerAddress", "providerId", providerId));
    }

    /** {@code check} names the listing rule the provider failed, when it was one ({@code docs_missing}). */
    private static ApiProblem connectionTestFailed(RegistrationRequest request, ProbeFailure failure) {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("field", "apiUrl");
        properties.put("reason", failure.getMessage());
        if (failure.check() != null) {
            properties.put("check", failure.check());
        }
        return new ApiProblem(HttpStatus.UNPROCESSABLE_ENTITY, "connection_test_failed",
                "the connection test of " + request.apiUrl() + " failed: " + failure.getMessage(), properties);
    }
}
