-- Agents' reports on providers after a session (POST /api/feedback): which provider, when, the
-- outcome and, for a failure, its reason. Nothing about who reported: the client's address is
-- used by the rate limit in memory and never stored. Rows older than the feedback window are
-- deleted; the directory shows each provider's counts over that window.

CREATE TABLE marketplace_feedback (
    provider_id VARCHAR(64) NOT NULL,
    received_at TIMESTAMP WITH TIME ZONE NOT NULL,
    outcome     VARCHAR(16) NOT NULL,
    reason      VARCHAR(16)
);

CREATE INDEX ix_marketplace_feedback_received_at ON marketplace_feedback (received_at);
