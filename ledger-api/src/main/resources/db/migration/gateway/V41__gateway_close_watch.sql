-- Channels with a close authorization the gateway handed out on a request that did not prove it
-- came from the consumer: the watchtower claims each above that authorization as soon as the
-- channel is charged past it (which voids it on-chain), and forgets the row once no such
-- authorization is left or the channel is closed.
CREATE TABLE gateway_close_watch (
    channel_id VARCHAR(66)              NOT NULL,
    provider   VARCHAR(42)              NOT NULL,
    created_at TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT pk_gateway_close_watch PRIMARY KEY (channel_id)
);

CREATE INDEX ix_gateway_close_watch_provider ON gateway_close_watch (provider);
