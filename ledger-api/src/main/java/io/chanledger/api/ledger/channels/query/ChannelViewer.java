package io.chanledger.api.ledger.channels.query;

import io.chanledger.api.http.ApiProblem;
import io.chanledger.projections.channel.ChannelQuery;
import java.util.Map;
import org.springframework.http.HttpStatus;

/**
 * Who is reading channel data, as {@link ChannelAudience} found them, and the one place that says
 * which {@link ChannelView} of a channel they get: the admin and the channel's consumer or
 * provider see everything; anyone else sees the on-chain facts. Addresses are lowercase.
 */
public sealed interface ChannelViewer {

    /** No credentials. */
    record Anonymous() implements ChannelViewer {
    }

    /** A valid wallet-signed request by {@code address}. */
    record Wallet(String address) implements ChannelViewer {
    }

    /** A request with the admin (auditor) token. */
    record Admin() implements ChannelViewer {
    }

    /** The view of a channel among others in a listing. */
    default ChannelView viewOfListed(String consumer, String provider) {
        return switch (this) {
            case Admin admin -> ChannelView.FULL;
            case Wallet wallet -> wallet.address().equals(consumer) || wallet.address().equals(provider)
                    ? ChannelView.FULL : ChannelView.ON_CHAIN;
            case Anonymous anonymous -> ChannelView.ON_CHAIN;
        };
    }

    /**
     * The view of one channel asked for by its id. A wallet that signs such a request asks for the
     * channel's private figures; when it is not a party it is told so (403
     * {@code wallet_not_a_party}) rather than handed a thinner answer it might take for the whole.
     */
    default ChannelView viewOf(String consumer, String provider) {
        ChannelView view = viewOfListed(consumer, provider);
        if (this instanceof Wallet && view == ChannelView.ON_CHAIN) {
            throw new ApiProblem(HttpStatus.FORBIDDEN, "wallet_not_a_party",
                    "the signing wallet is neither the provider nor the consumer of this channel");
        }
        return view;
    }

    /**
     * Refuses a listing filtered by an off-chain figure ({@code atRisk}: something claimable) unless
     * the viewer sees full figures of every channel the filter can return: the admin, or a wallet
     * filtering its own channels ({@code provider} or {@code consumer} = the signer). Otherwise the
     * filter would tell who has unclaimed vouchers even though the rows leave the figures out.
     */
    default void requireFullViewOfFiltered(ChannelQuery query) {
        if (query.atRisk() == null) {
            return;
        }
        boolean allowed = switch (this) {
            case Admin admin -> true;
            case Wallet wallet -> wallet.address().equals(query.provider()) || wallet.address().equals(query.consumer());
            case Anonymous anonymous -> false;
        };
        if (!allowed) {
            throw new ApiProblem(HttpStatus.FORBIDDEN, "private_filter", "atRisk filters by off-chain figures: sign "
                    + "the request with the wallet given as provider or consumer, or use the admin token",
                    Map.of("parameter", "atRisk"));
        }
    }
}
