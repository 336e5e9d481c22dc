-- A provider's public profile from its registration (logo, website, whether it streams), a read
-- model of ProviderRegistered like marketplace_provider (cleared and rebuilt on replay); and the
-- contact e-mail address, personal data kept beside the contact, out of the event store, so it
-- can be erased. A registration may give either contact, so neither is required.

CREATE TABLE marketplace_provider_profile (
    provider_id        VARCHAR(64)   NOT NULL,
    logo_url           VARCHAR(2048),
    website            VARCHAR(2048),
    supports_streaming BOOLEAN,
    CONSTRAINT pk_marketplace_provider_profile PRIMARY KEY (provider_id)
);

ALTER TABLE marketplace_provider_contact ALTER COLUMN contact DROP NOT NULL;
ALTER TABLE marketplace_provider_contact ADD COLUMN contact_email VARCHAR(254);
