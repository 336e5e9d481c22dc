-- The marketplace's provider directory. marketplace_provider, _model and _history are a read model
-- of the Provider events (cleared and rebuilt on replay); _health holds what each poll measured,
-- _contact the contact address given at registration (personal data, kept out of the event
-- store so it can be erased), _registration_nonce the nonces of registration signatures already
-- used. marketplace_read_version counts changes, so every instance knows when to rebuild its
-- precomputed responses.

CREATE TABLE marketplace_provider (
    provider_id           VARCHAR(64)   NOT NULL,
    address               VARCHAR(42)   NOT NULL,
    name                  VARCHAR(200)  NOT NULL,
    description           VARCHAR(4000) NOT NULL,
    api_url               VARCHAR(2048) NOT NULL,
    category              VARCHAR(32)   NOT NULL,
    additional_categories VARCHAR(512)  NOT NULL,
    tier                  VARCHAR(16)   NOT NULL,
    hotkey                VARCHAR(128),
    uid                   BIGINT,
    docs_url              VARCHAR(2048),
    registered_at         TIMESTAMP WITH TIME ZONE NOT NULL,
    approval              VARCHAR(16)   NOT NULL,
    approval_changed_at   TIMESTAMP WITH TIME ZONE,
    suspension_reason     VARCHAR(500),
    score                 NUMERIC(12, 9),
    online                BOOLEAN       NOT NULL,
    online_changed_at     TIMESTAMP WITH TIME ZONE,
    offline_reason        VARCHAR(500),
    models_published_at   TIMESTAMP WITH TIME ZONE,
    CONSTRAINT pk_marketplace_provider PRIMARY KEY (provider_id),
    CONSTRAINT uq_marketplace_provider_address UNIQUE (address)
);

CREATE TABLE marketplace_provider_model (
    provider_id   VARCHAR(64)    NOT NULL,
    model_id      VARCHAR(200)   NOT NULL,
    name          VARCHAR(200)   NOT NULL,
    input_per_1k  NUMERIC(78, 0) NOT NULL,
    output_per_1k NUMERIC(78, 0) NOT NULL,
    CONSTRAINT pk_marketplace_provider_model PRIMARY KEY (provider_id, model_id)
);

CREATE TABLE marketplace_provider_history (
    provider_id     VARCHAR(64)  NOT NULL,
    sequence_number BIGINT       NOT NULL,
    occurred_at     TIMESTAMP WITH TIME ZONE NOT NULL,
    kind            VARCHAR(32)  NOT NULL,
    detail          VARCHAR(1000),
    CONSTRAINT pk_marketplace_provider_history PRIMARY KEY (provider_id, sequence_number)
);

CREATE TABLE marketplace_provider_health (
    provider_id          VARCHAR(64) NOT NULL,
    last_checked         TIMESTAMP WITH TIME ZONE NOT NULL,
    latency_ms           BIGINT,
    consecutive_failures INTEGER     NOT NULL,
    last_error           VARCHAR(500),
    CONSTRAINT pk_marketplace_provider_health PRIMARY KEY (provider_id)
);

CREATE TABLE marketplace_provider_contact (
    provider_id VARCHAR(64)  NOT NULL,
    contact     VARCHAR(320) NOT NULL,
    updated_at  TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT pk_marketplace_provider_contact PRIMARY KEY (provider_id)
);

CREATE TABLE marketplace_registration_nonce (
    address VARCHAR(42) NOT NULL,
    nonce   VARCHAR(64) NOT NULL,
    used_at TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT pk_marketplace_registration_nonce PRIMARY KEY (address, nonce)
);

CREATE INDEX ix_marketplace_registration_nonce_used_at ON marketplace_registration_nonce (used_at);

CREATE TABLE marketplace_read_version (
    name    VARCHAR(64) NOT NULL,
    version BIGINT      NOT NULL,
    CONSTRAINT pk_marketplace_read_version PRIMARY KEY (name)
);

INSERT INTO marketplace_read_version (name, version) VALUES ('providers', 0);
