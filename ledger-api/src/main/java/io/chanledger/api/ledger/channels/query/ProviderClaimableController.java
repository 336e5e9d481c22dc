package io.chanledger.api.ledger.channels.query;

import io.chanledger.api.ledger.channels.command.ContractSettingsHistory;
import io.chanledger.api.ledger.readmodels.ReadModelProperties;
import io.chanledger.api.ledger.wallet.WalletAuthenticator;
import io.chanledger.api.http.ApiProblem;
import io.chanledger.domain.contract.ContractSettings;
import io.chanledger.projections.channel.ChannelBalance;
import io.chanledger.projections.channel.ChannelBalanceRepository;
import io.chanledger.projections.provideraccount.ProviderAccountRepository;
import io.chanledger.projections.rebuild.ReadModelProgress;
import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /api/providers/{address}/claimable}: for the provider's own wallet only, because it
 * hands out the voucher signatures the provider claims with.
 */
@RestController
class ProviderClaimableController {

    static final int DEFAULT_LIMIT = 100;
    static final int MAX_LIMIT = 500;

    private final ProviderAccountRepository accounts;
    private final ChannelBalanceRepository balances;
    private final ChannelReads reads;
    private final WalletAuthenticator wallets;
    private final ReadModelProgress progress;
    private final ReadModelProperties readModels;
    private final ContractSettingsHistory contract;

    ProviderClaimableController(ProviderAccountRepository accounts, ChannelBalanceRepository balances,
                                ChannelReads reads, WalletAuthenticator wallets, ReadModelProgress progress,
                                ReadModelProperties readModels, ContractSettingsHistory contract) {
        this.accounts = accounts;
        this.balances = balances;
        this.reads = reads;
        this.wallets = wallets;
        this.progress = progress;
        this.readModels = readModels;
        this.contract = contract;
    }

    @GetMapping(path = "/api/providers/{address}/claimable", produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<ClaimableResponse> claimable(@PathVariable String address,
                                                @RequestParam(required = false) String cursor,
                                                @RequestParam(required = false) String limit,
                                                HttpServletRequest request) {
        String provider = ChannelListParameters.address("address", address);
        int pageSize = ChannelListParameters.limit("limit", limit, DEFAULT_LIMIT, MAX_LIMIT);
        Cursors.ClaimsPosition after = cursor == null ? null : Cursors.claimsAfter(cursor);
        String wallet = wallets.require(request);
        if (!wallet.equals(provider)) {
            throw new ApiProblem(HttpStatus.FORBIDDEN, "wallet_not_provider",
                    "only the provider's own wallet may read its claimable vouchers");
        }
        ContractSettings settings = contract.current();
        long now = reads.now();
        long window = readModels.atRiskWindow().toSeconds();
        ClaimableResponse.Totals totals = accounts.find(provider, now + window)
                .map(ClaimableResponse.Totals::of).orElse(ClaimableResponse.Totals.NONE);
        List<ChannelBalance> rows = balances.claimable(provider, after == null ? null : after.expiry(),
                after == null ? null : after.channelId(), pageSize + 1);
        boolean more = rows.size() > pageSize;
        List<ChannelBalance> page = more ? rows.subList(0, pageSize) : rows;
        String next = more ? Cursors.claims(page.getLast().state().expiry(), page.getLast().channelId()) : null;
        return ResponseEntity.ok()
                .header(ChannelQueryController.REPLAYING_HEADER, Boolean.toString(progress.replaying()))
                .body(new ClaimableResponse(ClaimableResponse.checksummed(provider), totals, window,
                        page.stream().map(b -> ClaimableResponse.Claim.of(b, settings, now, window)).toList(), next));
    }
}
