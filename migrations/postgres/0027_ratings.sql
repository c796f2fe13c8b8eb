-- 0027_ratings (PostgreSQL): as ../0026_ratings.sql.
CREATE TABLE ratings (
    guild_id   BIGINT           NOT NULL,
    rules      TEXT             NOT NULL,
    user_id    BIGINT           NOT NULL,
    mu         DOUBLE PRECISION NOT NULL,
    sigma      DOUBLE PRECISION NOT NULL CHECK (sigma > 0),
    matches    INTEGER          NOT NULL CHECK (matches >= 1),
    shown      INTEGER          NOT NULL CHECK (shown >= 0),
    updated_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, rules, user_id)
);

CREATE TABLE rating_changes (
    match_id     BIGINT           NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    user_id      BIGINT           NOT NULL,
    guild_id     BIGINT           NOT NULL,
    rules        TEXT             NOT NULL,
    mu_before    DOUBLE PRECISION NOT NULL,
    sigma_before DOUBLE PRECISION NOT NULL,
    mu_after     DOUBLE PRECISION NOT NULL,
    sigma_after  DOUBLE PRECISION NOT NULL,
    shown_before INTEGER          NOT NULL,
    shown_after  INTEGER          NOT NULL,
    at           DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (match_id, user_id)
);

CREATE INDEX rating_changes_by_time ON rating_changes (guild_id, at);

CREATE TABLE rated_matches (
    match_id    BIGINT           PRIMARY KEY REFERENCES matches (id) ON DELETE CASCADE,
    guild_id    BIGINT           NOT NULL,
    rules       TEXT             NOT NULL,
    finished_at DOUBLE PRECISION NOT NULL,
    rated       INTEGER          NOT NULL CHECK (rated IN (0, 1))
);

CREATE TABLE rating_cursors (
    guild_id    BIGINT           NOT NULL,
    rules       TEXT             NOT NULL,
    finished_at DOUBLE PRECISION,
    match_id    BIGINT,
    PRIMARY KEY (guild_id, rules),
    CHECK ((finished_at IS NULL) = (match_id IS NULL))
);
