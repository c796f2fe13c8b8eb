-- 0001_init: the first schema of the table service.
--
-- Times are REAL unix seconds (UTC). Exact amounts are TEXT fractions such as '7/2' or
-- '-20' (Python's str(Fraction)), never floats. JSON columns are TEXT checked with
-- json_valid(). The runner applies this file inside one transaction and records it in
-- schema_version; it never edits this file once landed: add 0002_… instead.

-- A table in a channel: lobby -> playing -> finished, or cancelled from either.
CREATE TABLE game_tables (
    id                        INTEGER PRIMARY KEY,
    guild_id                  INTEGER NOT NULL,
    channel_id                INTEGER NOT NULL,
    creator_id                INTEGER NOT NULL,
    rules                     TEXT    NOT NULL CHECK (rules IN ('shanghai', 'hangzhou')),
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
                                      CHECK (permission_error_reported IN (0, 1))
);

-- "Is there a game going on in this channel?" is asked on every /mahjong new.
CREATE INDEX game_tables_live_by_channel
    ON game_tables (channel_id) WHERE status IN ('lobby', 'playing');
CREATE INDEX game_tables_by_status ON game_tables (status);

-- Who sits where. An empty seat has no row. A computer has no user_id.
CREATE TABLE seats (
    table_id             INTEGER NOT NULL REFERENCES game_tables (id) ON DELETE CASCADE,
    seat                 INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
    user_id              INTEGER,
    is_computer          INTEGER NOT NULL DEFAULT 0 CHECK (is_computer IN (0, 1)),
    display_name         TEXT    NOT NULL CHECK (length(display_name) > 0),
    away                 INTEGER NOT NULL DEFAULT 0 CHECK (away IN (0, 1)),
    consecutive_timeouts INTEGER NOT NULL DEFAULT 0 CHECK (consecutive_timeouts >= 0),
    -- {"always_win": bool, "pass_claims": bool, "discard_drawn_when_away": bool}
    choices              TEXT    NOT NULL
                                 DEFAULT '{"always_win":false,"pass_claims":false,"discard_drawn_when_away":false}'
                                 CHECK (json_valid(choices) AND json_type(choices) = 'object'),
    dm_closed            INTEGER NOT NULL DEFAULT 0 CHECK (dm_closed IN (0, 1)),
    joined_at            REAL    NOT NULL,
    PRIMARY KEY (table_id, seat),
    -- A person sits at most once per table (NULLs are distinct: many computers are fine).
    UNIQUE (table_id, user_id),
    CHECK ((is_computer = 1) = (user_id IS NULL))
);

CREATE INDEX seats_by_user ON seats (user_id) WHERE user_id IS NOT NULL;

-- A table's sequence of hands, from a first dealer to final totals.
CREATE TABLE matches (
    id           INTEGER PRIMARY KEY,
    table_id     INTEGER NOT NULL REFERENCES game_tables (id) ON DELETE CASCADE,
    number       INTEGER NOT NULL CHECK (number >= 1),
    first_dealer INTEGER NOT NULL CHECK (first_dealer BETWEEN 0 AND 3),
    status       TEXT    NOT NULL DEFAULT 'playing'
                         CHECK (status IN ('playing', 'finished', 'abandoned')),
    started_at   REAL    NOT NULL,
    finished_at  REAL,
    -- {"0": "7/2", "1": "-20", ...}: each seat's exact total, set when the match ends.
    totals       TEXT    CHECK (totals IS NULL OR (json_valid(totals) AND json_type(totals) = 'object')),
    UNIQUE (table_id, number),
    CHECK ((status = 'playing') = (finished_at IS NULL))
);

-- At most one match in play per table.
CREATE UNIQUE INDEX matches_one_playing ON matches (table_id) WHERE status = 'playing';

-- One deal. The wall is kept in dealing order, two characters a tile ("1m5z2p…"),
-- so that the replay of the actions rebuilds the hand and the commitment can be checked.
CREATE TABLE hands (
    id         INTEGER PRIMARY KEY,
    match_id   INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    number     INTEGER NOT NULL CHECK (number >= 1),
    wall       TEXT    NOT NULL CHECK (length(wall) > 0 AND length(wall) % 2 = 0
                                       AND wall NOT GLOB '*[^1-9mpszf]*'),
    salt       TEXT    NOT NULL CHECK (length(salt) >= 32 AND length(salt) % 2 = 0
                                       AND salt NOT GLOB '*[^0-9a-f]*'),
    commitment TEXT    NOT NULL CHECK (length(commitment) = 64
                                       AND commitment NOT GLOB '*[^0-9a-f]*'),
    dice       TEXT    NOT NULL CHECK (length(dice) = 3 AND dice GLOB '[1-6]+[1-6]'),
    dealer     INTEGER NOT NULL CHECK (dealer BETWEEN 0 AND 3),
    streak     INTEGER NOT NULL DEFAULT 0 CHECK (streak >= 0),
    huangfan   INTEGER NOT NULL DEFAULT 0 CHECK (huangfan >= 0),
    status     TEXT    NOT NULL DEFAULT 'live' CHECK (status IN ('live', 'ended')),
    started_at REAL    NOT NULL,
    ended_at   REAL,
    UNIQUE (match_id, number),
    CHECK ((status = 'ended') = (ended_at IS NOT NULL))
);

-- At most one live hand per match.
CREATE UNIQUE INDEX hands_one_live ON hands (match_id) WHERE status = 'live';

-- The append-only log: action n of a hand is written at most once (compare-and-set).
CREATE TABLE actions (
    hand_id INTEGER NOT NULL REFERENCES hands (id) ON DELETE CASCADE,
    seq     INTEGER NOT NULL CHECK (seq >= 1),
    seat    INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
    kind    TEXT    NOT NULL CHECK (length(kind) > 0),
    payload TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(payload)),
    source  TEXT    NOT NULL CHECK (source IN ('player', 'timeout', 'computer')),
    at      REAL    NOT NULL,
    PRIMARY KEY (hand_id, seq)  -- i.e. UNIQUE (hand_id, seq)
) WITHOUT ROWID;

-- The decision each seat owes, and when it times out. seq is the action seq it is for.
CREATE TABLE deadlines (
    hand_id     INTEGER NOT NULL REFERENCES hands (id) ON DELETE CASCADE,
    seat        INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
    seq         INTEGER NOT NULL CHECK (seq >= 1),
    kind        TEXT    NOT NULL CHECK (kind IN ('turn', 'claim', 'computer')),
    set_at      REAL    NOT NULL,
    due_at      REAL    NOT NULL CHECK (due_at >= set_at),
    reminded_at REAL,
    PRIMARY KEY (hand_id, seat)
) WITHOUT ROWID;

-- The scheduler sleeps until the earliest one.
CREATE INDEX deadlines_by_due ON deadlines (due_at);

-- Who paid whom at the end of a hand, written with the hand's final action.
CREATE TABLE settlements (
    hand_id  INTEGER NOT NULL REFERENCES hands (id) ON DELETE CASCADE,
    seat     INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
    amount   TEXT    NOT NULL CHECK (length(amount) > 0 AND amount NOT GLOB '*[^0-9/-]*'),
    patterns TEXT    NOT NULL DEFAULT '[]' CHECK (json_valid(patterns)),
    value    INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (hand_id, seat)
) WITHOUT ROWID;

-- A channel's running standings. player_key is 'user:<discord id>' or 'computer:<n>'.
CREATE TABLE leaderboard (
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
    PRIMARY KEY (channel_id, player_key)
) WITHOUT ROWID;
