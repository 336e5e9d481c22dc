-- Provider accounts are now derived from the channel balances of the same batch: each channel's
-- part no longer needs a table of its own, and the amount at risk is summed from channel_balance.
DROP TABLE provider_account_channel;
