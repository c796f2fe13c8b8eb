-- 0028_seasons (PostgreSQL): as ../0028_seasons.sql (seasons, their archive, the weekly
-- recap; announcements gain the kind 'recap').
CREATE TABLE seasons (
    guild_id   BIGINT  NOT NULL,
    number     INTEGER NOT NULL CHECK (number >= 1),
    started_at DOUBLE PRECISION,
    closed_at  DOUBLE PRECISION,
    closed_by  BIGINT,
    PRIMARY KEY (guild_id, number),
    CHECK ((closed_at IS NULL) = (closed_by IS NULL))
);

CREATE TABLE leaderboard_archive (
    guild_id        BIGINT  NOT NULL,
    season          INTEGER NOT NULL CHECK (season >= 1),
    channel_id      BIGINT  NOT NULL,
    rules           TEXT    NOT NULL CHECK (length(rules) > 0),
    player_key      TEXT    NOT NULL CHECK (player_key ~ '^(user|computer):[0-9]'),
    display_name    TEXT    NOT NULL,
    points          TEXT    NOT NULL DEFAULT '0'
                            CHECK (length(points) > 0 AND points !~ '[^0-9/-]'),
    hands_won       INTEGER NOT NULL DEFAULT 0 CHECK (hands_won >= 0),
    hands_played    INTEGER NOT NULL DEFAULT 0 CHECK (hands_played >= 0),
    matches_played  INTEGER NOT NULL DEFAULT 0 CHECK (matches_played >= 0),
    best_hand_value INTEGER,
    best_hand_desc  TEXT,
    PRIMARY KEY (channel_id, season, rules, player_key)
);

CREATE TABLE recaps (
    channel_id BIGINT  PRIMARY KEY,
    guild_id   BIGINT  NOT NULL,
    enabled    INTEGER NOT NULL CHECK (enabled IN (0, 1)),
    since      DOUBLE PRECISION NOT NULL
);

CREATE TABLE recaps_posted (
    channel_id BIGINT NOT NULL,
    week       TEXT   NOT NULL CHECK (week ~ '^[0-9]{4}-W[0-9]{2}$'),
    posted_at  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (channel_id, week)
);

ALTER TABLE announcements DROP CONSTRAINT announcements_kind_check;
ALTER TABLE announcements ADD CONSTRAINT announcements_kind_check
    CHECK (kind IN ('hand_started', 'settlement', 'reveal', 'leaderboard', 'match_ended',
                    'lobby', 'recap'));
