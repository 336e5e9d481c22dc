-- The provider's x402 revenue read model: one row per settled x402 payment, rebuilt from the
-- X402PaymentSettled events by the "provider-earnings" processor, beside the channel earnings. Its
-- dashboard reads revenue per model from it. Amounts in base units; settled_at in epoch seconds.
CREATE TABLE x402_revenue (
    payer        VARCHAR(42)    NOT NULL,
    nonce        VARCHAR(66)    NOT NULL,
    provider     VARCHAR(42)    NOT NULL,
    model        VARCHAR(200)   NOT NULL,
    amount       NUMERIC(78, 0) NOT NULL,
    tx_hash      VARCHAR(66)    NOT NULL,
    block_number BIGINT         NOT NULL,
    settled_at   BIGINT         NOT NULL,
    CONSTRAINT pk_x402_revenue PRIMARY KEY (payer, nonce)
);

CREATE INDEX ix_x402_revenue_provider ON x402_revenue (provider, model);
