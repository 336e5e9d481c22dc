-- The chain listener's own state. Rows are written in the same transaction as the events a batch
-- of blocks caused, so the checkpoint never runs ahead of or behind the event store.
-- listener_id separates listeners of different chains or contracts sharing one database.

CREATE TABLE chain_listener_checkpoint (
    listener_id     VARCHAR(200) NOT NULL,
    block_number    BIGINT NOT NULL,
    block_hash      VARCHAR(66) NOT NULL,
    block_timestamp BIGINT NOT NULL,
    updated_at      TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT pk_chain_listener_checkpoint PRIMARY KEY (listener_id)
);

-- Open channels and their expiry (epoch seconds), so that ChannelExpired is recorded from block
-- time after a restart as well: each batch expires the rows whose expiry its blocks reached.
CREATE TABLE chain_channel_expiry (
    listener_id VARCHAR(200) NOT NULL,
    channel_id  VARCHAR(66) NOT NULL,
    expiry      BIGINT NOT NULL,
    CONSTRAINT pk_chain_channel_expiry PRIMARY KEY (listener_id, channel_id)
);

CREATE INDEX ix_chain_channel_expiry_due ON chain_channel_expiry (listener_id, expiry);
