-- Skills: multi-provider workflows kept as versioned JSON documents. A publication that changes a
-- skill adds a version; earlier versions stay readable.

CREATE TABLE marketplace_skill_version (
    slug         VARCHAR(64)  NOT NULL,
    version      INTEGER      NOT NULL,
    document     VARCHAR      NOT NULL,
    content_hash VARCHAR(64)  NOT NULL,
    source       VARCHAR(16)  NOT NULL,
    published_at TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT pk_marketplace_skill_version PRIMARY KEY (slug, version)
);
