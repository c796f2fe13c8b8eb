-- 0016_departures: who left a running match, and at which point of which hand.
--
-- A person who leaves mid-match hands the seat to the computer (seats then holds the
-- computer). What the seat's person was is kept here, written in the same transaction
-- as the takeover: the leaderboard credits the hand they left to them (not to the
-- computer), and `/mahjong history` tells each action by who made it.
-- departures.seq: the actions of the hand applied when the person left (the actions
-- after it are the computer's); user_id, display_name: the person as seated.
CREATE TABLE departures (
    id           INTEGER PRIMARY KEY,
    hand_id      INTEGER NOT NULL REFERENCES hands (id) ON DELETE CASCADE,
    seat         INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
    seq          INTEGER NOT NULL CHECK (seq >= 0),
    user_id      INTEGER NOT NULL,
    display_name TEXT    NOT NULL,
    at           REAL    NOT NULL,
    UNIQUE (hand_id, seat)
);
