-- Answers the provider gateway was paid for, kept by the voucher that paid them for a while
-- (chan.gateway.answer-retention): re-sending that very voucher (same channel, nonce, amount and
-- signature) answers the kept answer again and charges nothing, so an agent that lost an answer
-- (timed out, connection dropped, the service crashed before answering) gets it without paying
-- twice. A row is written in the same commit as the request's RequestSettled: no charge is ever
-- recorded without its answer being retrievable. headers: the X-CHAN-* headers as a JSON object.
CREATE TABLE gateway_answer (
    channel_id  VARCHAR(66)              NOT NULL,
    nonce       NUMERIC(78, 0)           NOT NULL,
    amount      NUMERIC(78, 0)           NOT NULL,
    signature   VARCHAR(200)             NOT NULL,
    headers     VARCHAR                  NOT NULL,
    body        VARCHAR                  NOT NULL,
    answered_at TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT pk_gateway_answer PRIMARY KEY (channel_id, nonce)
);

CREATE INDEX ix_gateway_answer_answered_at ON gateway_answer (answered_at);

-- The gateway instances running on this database, so that one starting up can tell which holds
-- of running requests no live instance can still be serving (they were taken before every live
-- instance started: their process is gone) and release them at once instead of at hold-ttl.
CREATE TABLE gateway_instance (
    instance_id VARCHAR(64)              NOT NULL,
    started_at  TIMESTAMP WITH TIME ZONE NOT NULL,
    seen_at     TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT pk_gateway_instance PRIMARY KEY (instance_id)
);
