-- 0014_leaderboard_rules: a channel's standings are kept per rule set.
--
-- Shanghai pays in 花 × 底分 and Hangzhou in 底分 × 庄闲分 × its multiplier: a sum of
-- both is no number a player can read. leaderboard.rules names the rule set of the
-- tables whose hands (and leaving penalties) made the row, and is part of its key.
--
-- The rows already there: each goes to the rule set of the newest table of its channel
-- that began a match (a channel without one, which only tools make: the default rule
-- set, shanghai). In a channel that played one rule set, as most do, that is exact. A
-- channel that played both before this migration holds sums that mix the two units and
-- cannot be split again: the seats do not keep who sat in them at each past hand, so the
-- settlements cannot be given back to their players. Those rows are kept whole (nothing
-- a player earned is deleted) and go to the rule set the channel played last, the board
-- it shows by default; their points stay a mix until the channel's standings are reset.
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
    rules           TEXT    NOT NULL CHECK (rules IN ('shanghai', 'hangzhou')),
    PRIMARY KEY (channel_id, rules, player_key)
) WITHOUT ROWID;

INSERT INTO leaderboard_new (guild_id, channel_id, player_key, display_name, points,
                             hands_won, hands_played, matches_played, best_hand_value,
                             best_hand_desc, rules)
SELECT l.guild_id, l.channel_id, l.player_key, l.display_name, l.points, l.hands_won,
       l.hands_played, l.matches_played, l.best_hand_value, l.best_hand_desc,
       COALESCE((SELECT t.rules FROM game_tables t
                 WHERE t.channel_id = l.channel_id
                   AND EXISTS (SELECT 1 FROM matches m WHERE m.table_id = t.id)
                 ORDER BY t.id DESC LIMIT 1), 'shanghai')
FROM leaderboard l;

DROP TABLE leaderboard;
ALTER TABLE leaderboard_new RENAME TO leaderboard;
