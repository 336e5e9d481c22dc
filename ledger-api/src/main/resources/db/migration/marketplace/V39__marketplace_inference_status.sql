-- A provider is shown to agents only when its inference side is up too (docs/protocol.md §D.7):
-- /v1/docs of 100 characters or more, and POST /v1/chat/completions without a voucher answering
-- 402 with the payment terms. marketplace_provider keeps that status as the Provider events make
-- it (unknown, so down, until a check finds it up: existing providers are listed again after their
-- next health check); marketplace_provider_health the inference side's run of failed checks.

ALTER TABLE marketplace_provider ADD COLUMN inference_online BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE marketplace_provider ADD COLUMN inference_changed_at TIMESTAMP WITH TIME ZONE;

ALTER TABLE marketplace_provider_health ADD COLUMN inference_failures INTEGER NOT NULL DEFAULT 0;
ALTER TABLE marketplace_provider_health ADD COLUMN inference_error VARCHAR(500);
