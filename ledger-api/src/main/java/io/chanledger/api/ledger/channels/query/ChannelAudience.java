package io.chanledger.api.ledger.channels.query;

import io.chanledger.api.ledger.admin.AdminGuard;
import io.chanledger.api.ledger.wallet.WalletAuthenticator;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Component;

/**
 * Finds who reads channel data from a request's credentials: the admin token
 * ({@code Authorization: Bearer}), a wallet signature ({@code X-CHAN-Auth-*}) or none. Credentials
 * that are sent are judged, never ignored: a wrong admin token is 401 {@code admin_unauthorized}
 * and a bad wallet signature the wallet authenticator's 401, not an anonymous answer. When both
 * are sent the admin token decides and the wallet signature is left unjudged (and unspent).
 */
@Component
public class ChannelAudience {

    private final AdminGuard admin;
    private final WalletAuthenticator wallets;

    ChannelAudience(AdminGuard admin, WalletAuthenticator wallets) {
        this.admin = admin;
        this.wallets = wallets;
    }

    public ChannelViewer viewerOf(HttpServletRequest request) {
        if (admin.presented(request)) {
            admin.require(request);
            return new ChannelViewer.Admin();
        }
        return wallets.authenticate(request).<ChannelViewer>map(ChannelViewer.Wallet::new)
                .orElseGet(ChannelViewer.Anonymous::new);
    }

    /**
     * A 200 whose body depends on who asked: no cache may keep it (a shared cache would hand one
     * caller's figures to the next), and {@code Vary} names the headers it depends on.
     */
    public static ResponseEntity.BodyBuilder okForThisCaller() {
        return ResponseEntity.ok()
                .cacheControl(CacheControl.noStore())
                .varyBy(HttpHeaders.AUTHORIZATION, WalletAuthenticator.ADDRESS_HEADER,
                        WalletAuthenticator.TIMESTAMP_HEADER, WalletAuthenticator.NONCE_HEADER,
                        WalletAuthenticator.SIGNATURE_HEADER);
    }
}
