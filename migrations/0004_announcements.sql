-- 0004_announcements: the outbox. What the channel must be told about a change (a hand's
-- commitment, its settlement, the wall and salt reveal, the standings, the match end, the
-- closed lobby) is written in the SAME transaction as the change, and delivered after the
-- commit. A crash in between leaves the row undelivered; the next start delivers it.
--
-- A row is a reference, not the message: ``hand_id`` points at the hand it is about (its
-- wall, salt and log rebuild the reveal and the settlement, hands being deterministic
-- replays) and ``facts`` holds only what the log cannot give back (names at the time,
-- totals, the lobby's new state). Nothing concealed is ever stored here.
--
-- status: pending (not yet tried) -> sending (handed to Discord: it may or may not have
-- arrived) -> delivered (Discord accepted it). A row left 'sending' by a crash is looked
-- for in the channel before it is sent again, so it is posted exactly once.
CREATE TABLE announcements (
    id           INTEGER PRIMARY KEY,
    table_id     INTEGER NOT NULL REFERENCES game_tables (id) ON DELETE CASCADE,
    hand_id      INTEGER REFERENCES hands (id) ON DELETE CASCADE,
    kind         TEXT    NOT NULL CHECK (kind IN ('hand_started', 'settlement', 'reveal',
                                                  'leaderboard', 'match_ended', 'lobby')),
    -- unique per table: '<kind>-<table>-<hand number>' (0 when no hand was dealt)
    key          TEXT    NOT NULL UNIQUE CHECK (length(key) > 0),
    facts        TEXT    NOT NULL DEFAULT '{}'
                         CHECK (json_valid(facts) AND json_type(facts) = 'object'),
    status       TEXT    NOT NULL DEFAULT 'pending'
                         CHECK (status IN ('pending', 'sending', 'delivered')),
    created_at   REAL    NOT NULL,
    delivered_at REAL,
    CHECK ((status = 'delivered') = (delivered_at IS NOT NULL))
);

-- A start-up reads every undelivered row, in order.
CREATE INDEX announcements_undelivered ON announcements (id) WHERE status <> 'delivered';
