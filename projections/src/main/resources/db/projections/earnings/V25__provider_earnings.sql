-- The provider's earnings read model, rebuilt from the channel events by the "provider-earnings"
-- processor (its dashboard, GET /api/provider/dashboard, reads it beside channel_balance).

-- One row per paid request: the metered voucher that paid for it, the model or service it bought
-- (VoucherAccepted.model; vouchers recorded before the model was kept have no row), and what its
-- settlement charged (RequestSettled; settled_at, epoch seconds, stays null while it runs).
CREATE TABLE earnings_request (
    channel_id VARCHAR(66)    NOT NULL,
    nonce      NUMERIC(78, 0) NOT NULL,
    model      VARCHAR(200)   NOT NULL,
    charged    NUMERIC(78, 0) NOT NULL,
    settled_at BIGINT,
    CONSTRAINT pk_earnings_request PRIMARY KEY (channel_id, nonce)
);

-- One row per on-chain claim (ChannelClaimed), keyed by the channel's claimed total after it.
-- claimed_at: when the ledger recorded the claim's log.
CREATE TABLE earnings_claim (
    channel_id    VARCHAR(66)              NOT NULL,
    total_claimed NUMERIC(78, 0)           NOT NULL,
    provider      VARCHAR(42)              NOT NULL,
    payout        NUMERIC(78, 0)           NOT NULL,
    fee           NUMERIC(78, 0)           NOT NULL,
    tx_hash       VARCHAR(66)              NOT NULL,
    block_number  BIGINT                   NOT NULL,
    claimed_at    TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT pk_earnings_claim PRIMARY KEY (channel_id, total_claimed)
);

CREATE INDEX ix_earnings_claim_provider ON earnings_claim (provider, claimed_at);
