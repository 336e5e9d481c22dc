-- Claims the provider gateway's watchtower made or is making: one row per channel and voucher
-- amount. A claim counts as done (CONFIRMED) only once the chain listener has recorded its
-- ChannelClaimed; one that failed for good (FAILED) is not tried again, and stays visible here,
-- until a higher voucher gives the channel a new row. attempts counts every try (it sets the
-- backoff), failures only those that were not transient (they are limited).
CREATE TABLE gateway_claim (
    channel_id      VARCHAR(66)    NOT NULL,
    amount          NUMERIC(78, 0) NOT NULL,
    provider        VARCHAR(42)    NOT NULL,
    voucher_nonce   NUMERIC(78, 0) NOT NULL,
    reason          VARCHAR(16)    NOT NULL,
    status          VARCHAR(16)    NOT NULL,
    attempts        INTEGER        NOT NULL,
    failures        INTEGER        NOT NULL,
    next_attempt_at TIMESTAMP WITH TIME ZONE NOT NULL,
    tx_hash         VARCHAR(66),
    last_error      VARCHAR(1000),
    created_at      TIMESTAMP WITH TIME ZONE NOT NULL,
    updated_at      TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT pk_gateway_claim PRIMARY KEY (channel_id, amount)
);

CREATE INDEX ix_gateway_claim_provider_status ON gateway_claim (provider, status);
