-- USDC transfers by which the provider gives back to a channel's consumer what the chain paid
-- above the charged total (an expiry claim or a claim that voided a close authorization can only
-- use a voucher the consumer signed, and vouchers run ahead of what was charged). One row per
-- return, keyed by the channel's returned total after it. A transfer, unlike a claim, would not be
-- refused if sent twice: its signed bytes and nonce are written here before it reaches the node,
-- so that after a crash the same transaction is looked after, or sent again, never a second one.
CREATE TABLE gateway_excess_return (
    channel_id      VARCHAR(66)    NOT NULL,
    returned_total  NUMERIC(78, 0) NOT NULL,
    amount          NUMERIC(78, 0) NOT NULL,
    provider        VARCHAR(42)    NOT NULL,
    consumer        VARCHAR(42)    NOT NULL,
    status          VARCHAR(16)    NOT NULL,
    attempts        INTEGER        NOT NULL,
    next_attempt_at TIMESTAMP WITH TIME ZONE NOT NULL,
    tx_hash         VARCHAR(66),
    tx_nonce        NUMERIC(78, 0),
    raw_transaction VARCHAR,
    last_error      VARCHAR(1000),
    created_at      TIMESTAMP WITH TIME ZONE NOT NULL,
    updated_at      TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT pk_gateway_excess_return PRIMARY KEY (channel_id, returned_total)
);

CREATE INDEX ix_gateway_excess_return_provider_status ON gateway_excess_return (provider, status);
