-- Wallet-signed API requests already served: a signature is refused a second time until it
-- would have expired anyway. Keyed by keccak256(r || s), so the two spellings of v (0/1 and
-- 27/28) of one signature count as the same signature. Shared by every instance of the service.
CREATE TABLE wallet_auth_signature (
    signature_hash VARCHAR(66) NOT NULL,
    address        VARCHAR(42) NOT NULL,
    expires_at     TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT pk_wallet_auth_signature PRIMARY KEY (signature_hash)
);

CREATE INDEX ix_wallet_auth_signature_expires ON wallet_auth_signature (expires_at);
