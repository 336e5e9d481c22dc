-- The gas station's view of each wallet's grant: the state of the wallet's latest attempt,
-- written in the same transaction as the wallet's GasGrant events (a subscribing handler), so
-- that a restart finds every attempt left pending and resolves it from the chain.
-- status: reserved, send_started, broadcast (pending), granted (final), failed (available again).

CREATE TABLE gas_grant (
    wallet       VARCHAR(42)   NOT NULL,
    status       VARCHAR(16)   NOT NULL,
    attempt_id   VARCHAR(64)   NOT NULL,
    amount       NUMERIC(78,0) NOT NULL,
    faucet       VARCHAR(42),
    faucet_nonce BIGINT,
    from_block   BIGINT,
    tx_hash      VARCHAR(66),
    tx_nonce     BIGINT,
    block_number BIGINT,
    failure      VARCHAR(32),
    attempts     INTEGER       NOT NULL,
    reserved_at  TIMESTAMP WITH TIME ZONE NOT NULL,
    updated_at   TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT pk_gas_grant PRIMARY KEY (wallet)
);

CREATE INDEX ix_gas_grant_status ON gas_grant (status);
