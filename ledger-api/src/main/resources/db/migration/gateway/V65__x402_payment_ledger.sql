-- The settled payments in the ledger: recorded, then confirmed.
-- Whether a settled x402 payment is in the ledger's event store. Set once its event is appended;
-- a payment settled but not recorded (the process died between the two) is recorded by the
-- recovery pass. The append is idempotent per payment, so recording one twice stores one event.
ALTER TABLE x402_payment ADD COLUMN recorded BOOLEAN NOT NULL DEFAULT FALSE;

-- plain indexes, not partial ones: the watchtower's store tests run these migrations on H2, which has none
CREATE INDEX ix_x402_payment_unrecorded ON x402_payment (pay_to, status, recorded);

-- Whether the chain's final blocks show the payment's settlement (the token's AuthorizationUsed and
-- Transfer logs in its transaction), recorded as X402PaymentConfirmed.
ALTER TABLE x402_payment ADD COLUMN confirmed BOOLEAN NOT NULL DEFAULT FALSE;

CREATE INDEX ix_x402_payment_unconfirmed ON x402_payment (pay_to, confirmed, block_number);
