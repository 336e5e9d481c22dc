package io.chanledger.api.provider.dashboard;

import io.chanledger.api.ledger.chain.ListenerHealthIndicator;
import io.chanledger.api.ledger.channels.query.ChannelAudience;
import io.chanledger.api.ledger.channels.query.ChannelViewer;
import io.chanledger.api.provider.ProviderIdentity;
import io.chanledger.api.http.ApiProblem;
import io.chanledger.api.ledger.readmodels.ReadModelProperties;
import io.chanledger.api.ledger.wallet.WalletAuthenticator;
import io.chanledger.domain.eip712.Hex;
import io.chanledger.projections.earnings.EarningsTable;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /api/provider/dashboard}: this provider's earnings, claims, channels at risk,
 * revenue per model and its chain listener's state, for its own wallet (a wallet-signed request) or the admin token only, since
 * every figure in it is the provider's revenue.
 */
@RestController
@Tag(name = "Provider dashboard")
class ProviderDashboardController {

    static final int DAYS = 30;
    static final int CLAIMS = 100;
    static final int AT_RISK = 100;

    private final EarningsTable earnings;
    private final ProviderIdentity identity;
    private final ChannelAudience audience;
    private final WalletAuthenticator wallets;
    private final ReadModelProperties readModels;
    private final Clock clock;
    private final ObjectProvider<ListenerHealthIndicator> listenerHealth;
    private final X402Revenue x402;

    ProviderDashboardController(EarningsTable earnings, ProviderIdentity identity, ChannelAudience audience,
                                WalletAuthenticator wallets, ReadModelProperties readModels, Clock clock,
                                ObjectProvider<ListenerHealthIndicator> listenerHealth, JdbcTemplate jdbc) {
        this.x402 = new X402Revenue(jdbc);
        this.earnings = earnings;
        this.identity = identity;
        this.audience = audience;
        this.wallets = wallets;
        this.readModels = readModels;
        this.clock = clock;
        this.listenerHealth = listenerHealth;
    }

    @GetMapping(path = "/api/provider/dashboard", produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "This provider's dashboard",
            description = "Wallet-signed by the provider's own wallet, or with the admin token: earnings, claims, "
                    + "channels at risk and revenue per model (on channels and by x402 payments), in base units, and "
                    + "the chain listener's state")
    ResponseEntity<ProviderDashboard> dashboard(HttpServletRequest request) {
        requireProviderOrAdmin(request);
        String provider = identity.address();
        Instant asOf = clock.instant();
        long now = asOf.getEpochSecond();
        long window = readModels.atRiskWindow().toSeconds();
        long since = Math.floorDiv(now, Duration.ofDays(1).toSeconds()) * Duration.ofDays(1).toSeconds()
                - Duration.ofDays(DAYS - 1).toSeconds();
        ProviderDashboard body = new ProviderDashboard(Hex.toChecksumAddress(provider), asOf, window,
                ProviderDashboard.Earnings.of(earnings.totals(provider)),
                earnings.days(provider, since).stream().map(ProviderDashboard.Day::of).toList(),
                earnings.claims(provider, CLAIMS).stream().map(ProviderDashboard.Claim::of).toList(),
                earnings.atRisk(provider, now, window, AT_RISK).stream().map(r -> ProviderDashboard.AtRisk.of(r, now))
                        .toList(),
                ProviderDashboard.ModelRevenue.of(earnings.perModel(provider), x402.perModel(provider)),
                Optional.ofNullable(listenerHealth.getIfAvailable()).map(ListenerHealthIndicator::report).orElse(null));
        return ChannelAudience.okForThisCaller().body(body);
    }

    /**
     * The admin token when one is sent (a wrong one is 401 {@code admin_unauthorized}), otherwise
     * a wallet signature, which must be the provider's own wallet's: who asked is judged as for
     * every channel read ({@link ChannelAudience}).
     */
    private void requireProviderOrAdmin(HttpServletRequest request) {
        switch (audience.viewerOf(request)) {
            case ChannelViewer.Admin admin -> {
            }
            case ChannelViewer.Wallet wallet when wallet.address().equals(identity.address()) -> {
            }
            case ChannelViewer.Wallet other -> throw new ApiProblem(HttpStatus.FORBIDDEN, "wallet_not_provider",
                    "only this provider's own wallet (or the admin token) may read its dashboard");
            case ChannelViewer.Anonymous anonymous -> wallets.require(request); // 401 wallet_auth_required
        }
    }
}
