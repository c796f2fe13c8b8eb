-- 0017_rules_as_text: a table's and a leaderboard row's rule set is plain text.
--
-- Which rule sets exist is the engine's registry's to say (engine/rules): the service
-- refuses a name it does not know before anything is written, so a new rule set is one
-- module, not a module and a migration. game_tables.rules and leaderboard.rules lose
-- their CHECK (rules IN ('shanghai', 'hangzhou')) and keep only "not empty". SQLite
-- changes a CHECK by rebuilding the table (create, copy, drop, rename; the runner has
-- foreign keys off meanwhile and checks them before committing): the columns, their
-- order, the other checks and the indexes are as 0001, 0005, 0008 and 0014 left them.
CREATE TABLE game_tables_new (
    id                        INTEGER PRIMARY KEY,
    guild_id                  INTEGER NOT NULL,
    channel_id                INTEGER NOT NULL,
    creator_id                INTEGER NOT NULL,
    rules                     TEXT    NOT NULL CHECK (length(rules) > 0),
    options                   TEXT    NOT NULL DEFAULT '{}'
                                      CHECK (json_valid(options) AND json_type(options) = 'object'),
    status                    TEXT    NOT NULL DEFAULT 'lobby'
                                      CHECK (status IN ('lobby', 'playing', 'finished', 'cancelled')),
    created_at                REAL    NOT NULL,
    lobby_message_id          INTEGER,
    table_message_id          INTEGER,
    table_message_posted_at   REAL,
    -- Said once in the channel that the bot lacks a permission; not repeated.
    permission_error_reported INTEGER NOT NULL DEFAULT 0
                                      CHECK (permission_error_reported IN (0, 1)),
    ping_message_id           INTEGER,
    version                   INTEGER NOT NULL DEFAULT 0
);

INSERT INTO game_tables_new (id, guild_id, channel_id, creator_id, rules, options, status,
                             created_at, lobby_message_id, table_message_id,
                             table_message_posted_at, permission_error_reported,
                             ping_message_id, version)
SELECT id, guild_id, channel_id, creator_id, rules, options, status, created_at,
       lobby_message_id, table_message_id, table_message_posted_at,
       permission_error_reported, ping_message_id, version
FROM game_tables;

DROP TABLE game_tables;
ALTER TABLE game_tables_new RENAME TO game_tables;

CREATE INDEX game_tables_live_by_channel
    ON game_tables (channel_id) WHERE status IN ('lobby', 'playing');
CREATE INDEX game_tables_by_status ON game_tables (status);

CREATE TABLE leaderboard_new (
    guild_id        INTEGER NOT NULL,
    channel_id      INTEGER NOT NULL,
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
    rules           TEXT    NOT NULL CHECK (length(rules) > 0),
    PRIMARY KEY (channel_id, rules, player_key)
) WITHOUT ROWID;

INSERT INTO leaderboard_new (guild_id, channel_id, player_key, display_name, points,
                             hands_won, hands_played, matches_played, best_hand_value,
                             best_hand_desc, rules)
SELECT guild_id, channel_id, player_key, display_name, points, hands_won, hands_played,
       matches_played, best_hand_value, best_hand_desc, rules
FROM leaderboard;

DROP TABLE leaderboard;
ALTER TABLE leaderboard_new RENAME TO leaderboard;
