-- The channel read models gained columns (V23): their processor starts again from the first
-- event. Applied before V23 (out of order on an existing store), and on a new store harmless.
DELETE FROM token_entry WHERE processor_name = 'channel-read-models';
