-- Read models of the channel ledger, rebuilt from the event store by the "channel-read-models"
-- processor. Only columns that rarely change are indexed, so that the frequent voucher and claim
-- updates leave every index alone.

-- One row per channel: its terms, its highest accepted voucher and what the chain paid out.
-- claimable (highest voucher minus claimed, zero once closed) is stored because queries filter
-- and sum on it; last_sequence is the channel's last event applied, to skip what was applied.
CREATE TABLE channel_balance (
    channel_id              VARCHAR(66)    NOT NULL,
    consumer                VARCHAR(42)    NOT NULL,
    provider                VARCHAR(42)    NOT NULL,
    deposit                 NUMERIC(78, 0) NOT NULL,
    expiry                  BIGINT         NOT NULL,
    status                  VARCHAR(8)     NOT NULL,
    provisional             BOOLEAN        NOT NULL,
    highest_amount          NUMERIC(78, 0) NOT NULL,
    highest_nonce           NUMERIC(78, 0),
    highest_signature       VARCHAR(200),
    voucher_count           BIGINT         NOT NULL,
    claimed                 NUMERIC(78, 0) NOT NULL,
    claimable               NUMERIC(78, 0) NOT NULL,
    fees_paid               NUMERIC(78, 0) NOT NULL,
    refund                  NUMERIC(78, 0),
    close_kind              VARCHAR(16),
    authorized_close_amount NUMERIC(78, 0),
    last_activity           TIMESTAMP WITH TIME ZONE NOT NULL,
    last_sequence           BIGINT         NOT NULL,
    CONSTRAINT pk_channel_balance PRIMARY KEY (channel_id)
);

CREATE INDEX ix_channel_balance_provider ON channel_balance (provider, channel_id);
CREATE INDEX ix_channel_balance_provider_expiry ON channel_balance (provider, expiry, channel_id);
CREATE INDEX ix_channel_balance_consumer ON channel_balance (consumer, channel_id);
CREATE INDEX ix_channel_balance_expiry ON channel_balance (expiry);

-- Totals per provider address, kept in step with provider_account_channel in the same transaction.
CREATE TABLE provider_account (
    provider         VARCHAR(42)    NOT NULL,
    channels         BIGINT         NOT NULL,
    open_channels    BIGINT         NOT NULL,
    expired_channels BIGINT         NOT NULL,
    claimable        NUMERIC(78, 0) NOT NULL,
    claimed          NUMERIC(78, 0) NOT NULL,
    fees_paid        NUMERIC(78, 0) NOT NULL,
    last_activity    TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT pk_provider_account PRIMARY KEY (provider)
);

-- What each channel contributes to its provider's totals; the amount at risk is summed from it
-- at query time, because it depends on the clock, not only on events.
CREATE TABLE provider_account_channel (
    channel_id    VARCHAR(66)    NOT NULL,
    provider      VARCHAR(42)    NOT NULL,
    status        VARCHAR(8)     NOT NULL,
    expiry        BIGINT         NOT NULL,
    highest       NUMERIC(78, 0) NOT NULL,
    claimed       NUMERIC(78, 0) NOT NULL,
    claimable     NUMERIC(78, 0) NOT NULL,
    fees_paid     NUMERIC(78, 0) NOT NULL,
    last_activity TIMESTAMP WITH TIME ZONE NOT NULL,
    last_sequence BIGINT         NOT NULL,
    CONSTRAINT pk_provider_account_channel PRIMARY KEY (channel_id)
);

CREATE INDEX ix_provider_account_channel_provider ON provider_account_channel (provider, expiry);
