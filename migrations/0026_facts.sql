-- 0026_facts: what each seat did in each settled hand and each finished match (issue 31),
-- the projection that stats, ratings, boards and recaps read instead of the logs.
--
-- Derived, never a source: every row follows from hands, actions, settlements, seats and
-- departures (bot/service/facts.py), is written in the transaction that settles its hand
-- (hand_facts) or finishes its match (match_facts), and can be dropped and rebuilt
-- (STATS_FORMULA in bot_settings). A voided hand of a cancelled table and an abandoned
-- match have none. user_id: the person credited with the seat (a person who left is
-- credited for the hand they left); NULL is a computer. Amounts are exact TEXT fractions;
-- JSON columns are TEXT. move_hist counts the person's own moves by how long each took
-- (MOVE_BUCKETS); marks holds the rule set's own figures ({"bao_tou": 1, …}).
CREATE TABLE hand_facts (
    hand_id      INTEGER NOT NULL REFERENCES hands (id) ON DELETE CASCADE,
    seat         INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
    match_id     INTEGER NOT NULL,
    table_id     INTEGER NOT NULL,
    guild_id     INTEGER NOT NULL,
    channel_id   INTEGER NOT NULL,
    rules        TEXT    NOT NULL CHECK (length(rules) > 0),
    hand_number  INTEGER NOT NULL,
    user_id      INTEGER,
    ended_at     REAL    NOT NULL,
    points       TEXT    NOT NULL CHECK (length(points) > 0 AND points NOT GLOB '*[^0-9/-]*'),
    won          INTEGER NOT NULL CHECK (won IN (0, 1)),
    self_draw    INTEGER NOT NULL CHECK (self_draw IN (0, 1)),
    won_from     INTEGER CHECK (won_from IS NULL OR won_from BETWEEN 0 AND 3),
    dealt_in     INTEGER NOT NULL CHECK (dealt_in IN (0, 1)),
    deal_in_cost TEXT    NOT NULL DEFAULT '0'
                         CHECK (length(deal_in_cost) > 0 AND deal_in_cost NOT GLOB '*[^0-9/]*'),
    win_value    INTEGER,
    patterns     TEXT    NOT NULL DEFAULT '[]',
    claims       INTEGER NOT NULL DEFAULT 0 CHECK (claims >= 0),
    drawn        INTEGER NOT NULL CHECK (drawn IN (0, 1)),
    marks        TEXT    NOT NULL DEFAULT '{}',
    moves        INTEGER NOT NULL DEFAULT 0 CHECK (moves >= 0),
    move_hist    TEXT    NOT NULL DEFAULT '[]',
    timeouts     INTEGER NOT NULL DEFAULT 0 CHECK (timeouts >= 0),
    taken_over   INTEGER NOT NULL DEFAULT 0 CHECK (taken_over IN (0, 1)),
    dealer       INTEGER NOT NULL DEFAULT 0 CHECK (dealer IN (0, 1)),
    PRIMARY KEY (hand_id, seat)
);

-- A person's figures per rule set, in a channel or a server; a channel's week.
CREATE INDEX hand_facts_by_user ON hand_facts (user_id, rules, guild_id, channel_id)
    WHERE user_id IS NOT NULL;
CREATE INDEX hand_facts_by_channel ON hand_facts (channel_id, ended_at);
CREATE INDEX hand_facts_by_match ON hand_facts (match_id);

CREATE TABLE match_facts (
    match_id    INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    seat        INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
    table_id    INTEGER NOT NULL,
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    rules       TEXT    NOT NULL CHECK (length(rules) > 0),
    user_id     INTEGER,
    finished_at REAL    NOT NULL,
    placement   INTEGER NOT NULL CHECK (placement BETWEEN 1 AND 4),
    total       TEXT    NOT NULL CHECK (length(total) > 0 AND total NOT GLOB '*[^0-9/-]*'),
    hands       INTEGER NOT NULL CHECK (hands >= 0),
    computers   INTEGER NOT NULL CHECK (computers BETWEEN 0 AND 4),
    PRIMARY KEY (match_id, seat)
);

-- Finished matches in order, per server and rule set (the ratings' cursor).
CREATE INDEX match_facts_in_order ON match_facts (guild_id, rules, finished_at, match_id);
CREATE INDEX match_facts_by_user ON match_facts (user_id, rules, guild_id, channel_id)
    WHERE user_id IS NOT NULL;
CREATE INDEX match_facts_by_channel ON match_facts (channel_id, finished_at);
