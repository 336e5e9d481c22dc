-- What the provider gave back to a channel's consumer of what the chain paid above the charged
-- total (ExcessReturned). No channel had a return before this column, so no rebuild is needed.
ALTER TABLE channel_balance ADD COLUMN returned NUMERIC(78, 0) NOT NULL DEFAULT 0;
