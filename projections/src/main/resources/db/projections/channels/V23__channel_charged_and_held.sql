-- The channel read model shows what the provider gateway charged a channel (charged_total) and
-- what its running requests hold (holds: "nonce:amount:until" entries separated by ';', summed at
-- read time over those not lapsed yet). Both come from events the model did not fold before
-- (RequestSettled, HoldRaised, the holds of metered vouchers): the channel read models are
-- emptied here, and V2 removed their processor's token, so the processor rebuilds them from the
-- first event when the service starts (or POST /api/admin/replay rebuilds them).
ALTER TABLE channel_balance ADD COLUMN charged_total NUMERIC(78, 0) NOT NULL DEFAULT 0;
ALTER TABLE channel_balance ADD COLUMN holds VARCHAR NOT NULL DEFAULT '';

DELETE FROM channel_balance;
DELETE FROM provider_account;
