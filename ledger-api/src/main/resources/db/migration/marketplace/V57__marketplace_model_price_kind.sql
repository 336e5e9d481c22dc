-- A listed model's whole price: its kind (tokens, flat, per-unit) and, for a price per unit, the
-- unit (the request's parameter that counts them), the price of one unit in base units and the
-- bounds of a request. A row written before has no kind: its two numbers say it (output 0 and
-- input above 0 is flat, anything else per token), and the next check of its provider publishes
-- the kind its /v1/pricing gives.

ALTER TABLE marketplace_provider_model ADD COLUMN price_kind VARCHAR(16);
ALTER TABLE marketplace_provider_model ADD COLUMN unit VARCHAR(200);
ALTER TABLE marketplace_provider_model ADD COLUMN per_unit NUMERIC(78, 0);
ALTER TABLE marketplace_provider_model ADD COLUMN min_units BIGINT;
ALTER TABLE marketplace_provider_model ADD COLUMN max_units BIGINT;
