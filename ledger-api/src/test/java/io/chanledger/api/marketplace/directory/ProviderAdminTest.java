package io.chanledger.api.marketplace.directory;

import static org.assertj.core.api.Assertions.assertThat;

import io.chanledger.api.support.Http;
import io.chanledger.api.support.LedgerIntegrationTest;
import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ProviderAdminTest extends LedgerIntegrationTest {

    private MarketplaceFixture fixture;
    private MarketplaceFixture.Registered provider;

    @BeforeEach
    void register() {
        fixture = new MarketplaceFixture(baseUrl());
        provider = fixture.register(b -> { }, "admin", null);
    }

    @AfterEach
    void stop() {
        fixture.close();
    }

    private String path(String action) {
        return "/api/admin/providers/" + provider.id() + "/" + action;
    }

    @Test
    void adminActionsNeedTheAdminToken() {
        Http.Reply anonymous = Http.send(HttpRequest.newBuilder(URI.create(baseUrl() + path("approve")))
                .POST(HttpRequest.BodyPublishers.noBody()));
        Http.Reply wrong = Http.send(HttpRequest.newBuilder(URI.create(baseUrl() + path("approve")))
                .header("Authorization", "Bearer not-the-token").POST(HttpRequest.BodyPublishers.noBody()));

        ProviderRegistrationTest.assertProblem(anonymous, 401, "admin_unauthorized", null);
        ProviderRegistrationTest.assertProblem(wrong, 401, "admin_unauthorized", null);
        // registration waits at most two seconds for the directory to show the provider: under load it may not yet
        fixture.awaitEntry(provider, entry -> true);
        assertThat(fixture.directoryEntry(provider.id()).path("approval").path("state").asText()).isEqualTo("pending");
    }

    @Test
    void approveSuspendAndScoreAreRecordedInTheDirectory() {
        assertThat(Registrations.approve(baseUrl(), provider.id()).json().path("action").asText()).isEqualTo("approved");
        fixture.awaitEntry(provider, e -> e.path("approval").path("state").asText().equals("approved"));

        Http.Reply scored = Registrations.admin(baseUrl(), "PUT", path("score"), "{\"score\": \"0.875\"}");
        assertThat(scored.status()).as(scored.body()).isEqualTo(200);
        fixture.awaitEntry(provider, e -> e.path("score").decimalValue().compareTo(new BigDecimal("0.875")) == 0);

        Http.Reply suspended = Registrations.admin(baseUrl(), "POST", path("suspend"), "{\"reason\": \"abuse report\"}");
        assertThat(suspended.status()).isEqualTo(200);
        fixture.awaitEntry(provider, e -> e.path("approval").path("reason").asText().equals("abuse report"));
    }

    @Test
    void aScoreOutsideZeroToOneIsRefused() {
        for (String body : new String[]{"{\"score\": 1.5}", "{\"score\": -0.1}", "{\"score\": \"high\"}", "{}",
                "{\"score\": 0.1234567891}"}) {
            ProviderRegistrationTest.assertProblem(Registrations.admin(baseUrl(), "PUT", path("score"), body), 400,
                    "invalid_field", "score");
        }
    }

    @Test
    void aScoreBeyondTheRangeOfADoubleIsRefusedAndChangesNothing() {
        fixture.score(provider, "0.5");
        fixture.awaitEntry(provider, e -> e.path("score").decimalValue().compareTo(new BigDecimal("0.5")) == 0);

        for (String score : new String[]{"1e400", "-1e400", "1.5E+309"}) {
            ProviderRegistrationTest.assertProblem(Registrations.admin(baseUrl(), "PUT", path("score"),
                    "{\"score\": " + score + "}"), 400, "invalid_field", "score");
        }
        assertThat(fixture.directoryEntry(provider.id()).path("score").decimalValue()).isEqualByComparingTo("0.5");
    }

    @Test
    void anUnknownProviderIsNotFound() {
        ProviderRegistrationTest.assertProblem(Registrations.approve(baseUrl(), "prov-000000000000000000000000"), 404,
                "provider_not_found", null);
        ProviderRegistrationTest.assertProblem(Registrations.approve(baseUrl(), "nonsense"), 404,
                "provider_not_found", null);
    }
}
