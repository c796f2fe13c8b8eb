-- 0028_seasons: seasons of a server's boards, their archive, and the weekly recap
-- (issue 31).
--
-- seasons: one row per season of a server that was closed or begun by a close; a server
-- with no row is in its season 1. started_at is NULL for a first season (it began before
-- seasons were kept). A season is closed once: the close is a compare-and-set on
-- closed_at (two presses, or two processes, close it once).
CREATE TABLE seasons (
    guild_id   INTEGER NOT NULL,
    number     INTEGER NOT NULL CHECK (number >= 1),
    started_at REAL,
    closed_at  REAL,
    closed_by  INTEGER,
    PRIMARY KEY (guild_id, number),
    CHECK ((closed_at IS NULL) = (closed_by IS NULL))
);

-- leaderboard_archive: the leaderboard rows of every channel of a server as they stood
-- when its season closed, with that season's number (the live board then starts empty).
-- An all-time board is this archive and the live board summed.
CREATE TABLE leaderboard_archive (
    guild_id        INTEGER NOT NULL,
    season          INTEGER NOT NULL CHECK (season >= 1),
    channel_id      INTEGER NOT NULL,
    rules           TEXT    NOT NULL CHECK (length(rules) > 0),
    player_key      TEXT    NOT NULL CHECK (player_key GLOB 'user:[0-9]*'
                                            OR player_key GLOB 'computer:[0-9]*'),
    display_name    TEXT    NOT NULL,
    points          TEXT    NOT NULL DEFAULT '0'
                            CHECK (length(points) > 0 AND points NOT GLOB '*[^0-9/-]*'),
    hands_won       INTEGER NOT NULL DEFAULT 0 CHECK (hands_won >= 0),
    hands_played    INTEGER NOT NULL DEFAULT 0 CHECK (hands_played >= 0),
    matches_played  INTEGER NOT NULL DEFAULT 0 CHECK (matches_played >= 0),
    best_hand_value INTEGER,
    best_hand_desc  TEXT,
    PRIMARY KEY (channel_id, season, rules, player_key)
) WITHOUT ROWID;

-- recaps: the weekly recap of a channel, turned on or off by a server manager; since:
-- when it was last turned on.
CREATE TABLE recaps (
    channel_id INTEGER PRIMARY KEY,
    guild_id   INTEGER NOT NULL,
    enabled    INTEGER NOT NULL CHECK (enabled IN (0, 1)),
    since      REAL    NOT NULL
);

-- recaps_posted: the weeks (ISO 'YYYY-Www', UTC) a channel's recap was decided for,
-- written in the same transaction as the recap's announcement (none for a quiet week),
-- so a week is posted once whatever restarts or processes.
CREATE TABLE recaps_posted (
    channel_id INTEGER NOT NULL,
    week       TEXT    NOT NULL CHECK (week GLOB '[0-9][0-9][0-9][0-9]-W[0-9][0-9]'),
    posted_at  REAL    NOT NULL,
    PRIMARY KEY (channel_id, week)
);

-- announcements gain the kind 'recap' (a channel's weekly recap: about no hand, carried
-- by the channel's last table). SQLite changes a CHECK by rebuilding the table; the
-- columns, their order, the other checks and the index are as 0004 and 0008 left them.
CREATE TABLE announcements_new (
    id            INTEGER PRIMARY KEY,
    table_id      INTEGER NOT NULL REFERENCES game_tables (id) ON DELETE CASCADE,
    hand_id       INTEGER REFERENCES hands (id) ON DELETE CASCADE,
    kind          TEXT    NOT NULL CHECK (kind IN ('hand_started', 'settlement', 'reveal',
                                                   'leaderboard', 'match_ended', 'lobby',
                                                   'recap')),
    key           TEXT    NOT NULL UNIQUE CHECK (length(key) > 0),
    facts         TEXT    NOT NULL DEFAULT '{}'
                          CHECK (json_valid(facts) AND json_type(facts) = 'object'),
    status        TEXT    NOT NULL DEFAULT 'pending'
                          CHECK (status IN ('pending', 'sending', 'delivered')),
    created_at    REAL    NOT NULL,
    delivered_at  REAL,
    claimed_by    TEXT,
    claimed_until REAL,
    CHECK ((status = 'delivered') = (delivered_at IS NOT NULL))
);

INSERT INTO announcements_new (id, table_id, hand_id, kind, key, facts, status, created_at,
                               delivered_at, claimed_by, claimed_until)
SELECT id, table_id, hand_id, kind, key, facts, status, created_at, delivered_at,
       claimed_by, claimed_until
FROM announcements;

DROP TABLE announcements;
ALTER TABLE announcements_new RENAME TO announcements;

CREATE INDEX announcements_undelivered ON announcements (id) WHERE status <> 'delivered';
