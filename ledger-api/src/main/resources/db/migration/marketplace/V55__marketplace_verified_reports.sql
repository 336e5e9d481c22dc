-- Reports that prove a paying relationship: a feedback or telemetry report signed by a wallet that
-- has a channel with the provider keeps that wallet (lowercase), so that each wallet counts once in
-- the provider's quality score; anonymous reports keep nothing about who sent them (wallet NULL),
-- are shown apart as unverified and count in no score. Every row written before is anonymous.
-- A paid request that got no HTTP answer at all (the client's httpStatus 0) is a failure without
-- a status: http_status NULL.

ALTER TABLE marketplace_feedback ADD COLUMN wallet VARCHAR(42);
ALTER TABLE marketplace_telemetry ADD COLUMN wallet VARCHAR(42);
ALTER TABLE marketplace_telemetry ALTER COLUMN http_status DROP NOT NULL;
