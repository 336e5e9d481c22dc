package io.chanledger.domain.channel;

/** Life of a channel as the ledger sees it. Claims stay possible while EXPIRED, as on-chain. */
public enum ChannelStatus {
    OPEN, EXPIRED, CLOSED;

    public String code() {
        return name().toLowerCase();
    }
}
