package io.chanledger.api.marketplace.directory;

import io.chanledger.api.ledger.wallet.WalletAuthenticator;
import io.chanledger.projections.channel.ChannelBalanceRepository;
import io.chanledger.projections.marketplace.ProviderView;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Optional;
import org.springframework.stereotype.Component;

/**
 * Tells verified reports from the rest. A report is verified when its request is signed by a
 * wallet ({@code X-CHAN-Auth-*}, see {@link WalletAuthenticator}) that is the consumer of a channel
 * the ledger knows with the provider reported on: the chain shows that it pays that provider. A
 * signature that is wrong is refused (401), not taken as anonymous; a valid one by a wallet without
 * such a channel, or by the provider itself, leaves the report unverified.
 */
@Component
class ReportSources {

    /** Who sent a post: the wallet that signed it (empty: none did) and the network it came from. */
    record Sender(Optional<String> wallet, String network) {
    }

    private final WalletAuthenticator wallets;
    private final ChannelBalanceRepository channels;
    private final ClientLimits limits;

    ReportSources(WalletAuthenticator wallets, ChannelBalanceRepository channels, ClientLimits limits) {
        this.wallets = wallets;
        this.channels = channels;
        this.limits = limits;
    }

    /**
     * Judges the request's wallet signature over {@code body}, the request's body as read, if it
     * carries one: 401 when it is not valid.
     */
    Sender senderOf(HttpServletRequest request, byte[] body) {
        return new Sender(wallets.authenticate(request, body), SourceNetwork.of(limits.clientOf(request)));
    }

    /** What a report of {@code sender} on {@code provider} counts as. */
    ReportSource sourceOn(Sender sender, ProviderView provider) {
        String providerAddress = provider.row().address();
        return sender.wallet()
                .filter(wallet -> !wallet.equals(providerAddress) && channels.hasChannel(wallet, providerAddress))
                .<ReportSource>map(ReportSource.Wallet::new)
                .orElseGet(() -> new ReportSource.Network(sender.network()));
    }
}
