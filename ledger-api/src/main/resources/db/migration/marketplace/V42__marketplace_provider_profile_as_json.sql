-- A provider's public profile kept as one JSON text (ProviderProfile's members by their names), so
-- that a member added to the profile is stored and read back with no column and no migration of
-- its own. Never queried inside: it is read whole with the provider. Text rather than JSONB so that
-- the in-memory database of the table tests takes it too. The rows written so far are converted
-- here; a null member is written as null, which reads back as not given.

ALTER TABLE marketplace_provider_profile ADD COLUMN profile VARCHAR(16384) DEFAULT '{}' NOT NULL;

-- URLs carry neither quotes nor backslashes (they were checked as http(s) URLs), escaped all the same
UPDATE marketplace_provider_profile SET profile = '{"logoUrl":'
    || COALESCE('"' || REPLACE(REPLACE(logo_url, '\', '\\'), '"', '\"') || '"', 'null')
    || ',"website":'
    || COALESCE('"' || REPLACE(REPLACE(website, '\', '\\'), '"', '\"') || '"', 'null')
    || ',"supportsStreaming":'
    || CASE WHEN supports_streaming IS NULL THEN 'null' WHEN supports_streaming THEN 'true' ELSE 'false' END
    || '}';

ALTER TABLE marketplace_provider_profile DROP COLUMN logo_url;
ALTER TABLE marketplace_provider_profile DROP COLUMN website;
ALTER TABLE marketplace_provider_profile DROP COLUMN supports_streaming;
