-- Every health check's outcome per provider for a day (the provider page's latency chart). Written
-- by the health checker beside marketplace_provider_health, not derived from events, so a replay
-- of the directory leaves it alone.
CREATE TABLE marketplace_provider_latency (
    provider_id VARCHAR(64)              NOT NULL,
    checked_at  TIMESTAMP WITH TIME ZONE NOT NULL,
    latency_ms  BIGINT,
    ok          BOOLEAN                  NOT NULL,
    CONSTRAINT pk_marketplace_provider_latency PRIMARY KEY (provider_id, checked_at)
);
