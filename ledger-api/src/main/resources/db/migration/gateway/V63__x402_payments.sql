-- x402 payments the provider settles itself: one row per EIP-3009 authorization (payer, nonce),
-- so that one authorization is reserved by one request and settled by one transaction, whatever
-- copies arrive at once and on however many instances of the provider. status: RESERVED (a request
-- holds it), SENDING (its transaction is signed and written here, raw_tx, before it is sent: after a
-- crash it is sent again or waited for, never signed anew), SETTLED, FAILED (final), RELEASED (given
-- back unused; may be reserved again). Amounts in base units.
CREATE TABLE x402_payment (
    payer          VARCHAR(42)              NOT NULL,
    nonce          VARCHAR(66)              NOT NULL,
    pay_to         VARCHAR(42)              NOT NULL,
    amount         NUMERIC(78, 0)           NOT NULL,
    valid_after    NUMERIC(78, 0)           NOT NULL,
    valid_before   NUMERIC(78, 0)           NOT NULL,
    signature      VARCHAR                  NOT NULL,
    status         VARCHAR(16)              NOT NULL,
    reservation_id VARCHAR(64)              NOT NULL,
    model          VARCHAR(200),
    tx_hash        VARCHAR(66),
    tx_nonce       BIGINT,
    raw_tx         VARCHAR,
    block_number   BIGINT,
    failure        VARCHAR(80),
    reserved_at    TIMESTAMP WITH TIME ZONE NOT NULL,
    sent_at        TIMESTAMP WITH TIME ZONE,
    settled_at     TIMESTAMP WITH TIME ZONE,
    CONSTRAINT pk_x402_payment PRIMARY KEY (payer, nonce)
);

-- on status as a whole: the unfinished are few, and the in-memory database the provider's table tests
-- migrate with has no partial indexes
CREATE INDEX ix_x402_payment_unfinished ON x402_payment (status);

-- The next nonce of each wallet that settles x402 payments. A sender locks its row (SELECT ... FOR
-- UPDATE) from taking a nonce until the transaction is handed to the node, so two instances of one
-- provider never sign two transactions with one nonce.
CREATE TABLE x402_wallet_nonce (
    wallet     VARCHAR(42) NOT NULL,
    next_nonce BIGINT      NOT NULL,
    CONSTRAINT pk_x402_wallet_nonce PRIMARY KEY (wallet)
);
