package io.chanledger.api.ledger.wallet;

import io.chanledger.domain.eip712.Hex;

/**
 * The party this process is to the wallet-signed requests it receives: the {@code audience} line
 * of the text they sign ({@link WalletRequestMessage}). A signature names one party and is refused
 * by every other, so what one party receives it cannot spend at another. Each role defines its own:
 * a server that runs a provider's gateway is that provider, named by its wallet (which clients know
 * from the listing and from the channel on-chain), and that one wins in a process of every role; a
 * marketplace is named by its public URL ({@code chan.marketplace.marketplace-url}), the address its
 * clients reach it at, so that a marketplace run by anyone else on the same contract is another
 * party too.
 */
public sealed interface WalletAudience {

    /** The {@code audience} line's value. */
    String name();

    /** A provider's server: its wallet, lowercase. */
    record Provider(String address) implements WalletAudience {

        public Provider {
            address = Hex.normalizeAddress(address);
        }

        @Override
        public String name() {
            return address;
        }
    }

    /** The marketplace: its public base URL, without a trailing slash, as configured. */
    record Marketplace(String url) implements WalletAudience {

        public Marketplace {
            if (url == null || url.isBlank() || url.endsWith("/")) {
                throw new IllegalArgumentException("the marketplace's audience is its URL without a trailing slash");
            }
        }

        @Override
        public String name() {
            return url;
        }
    }
}
