-- Agents' clients' reports of their paid requests (POST /api/telemetry): which provider, when,
-- the latency the agent observed, the HTTP status and the cost in USDC base units. Nothing about
-- who reported: the agent id and the client's address only feed limits held in memory and are
-- never stored. Rows older than the telemetry window are deleted; the directory shows each
-- provider's latency percentiles, failures by status and paid volume over that window.

CREATE TABLE marketplace_telemetry (
    provider_id VARCHAR(64)    NOT NULL,
    received_at TIMESTAMP WITH TIME ZONE NOT NULL,
    latency_ms  BIGINT         NOT NULL,
    http_status INTEGER        NOT NULL,
    cost        NUMERIC(78, 0) NOT NULL
);

CREATE INDEX ix_marketplace_telemetry_received_at ON marketplace_telemetry (received_at);

-- the quality score reads every provider's share of passed health checks over the last hour
CREATE INDEX ix_marketplace_provider_latency_checked_at ON marketplace_provider_latency (checked_at);
