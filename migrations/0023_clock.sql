-- 0023_clock: a clock that fits (issue 30): the warning when a quarter of a person's
-- time is left, the time bank, and when each decision was put to its person.
--
-- deadlines.timer_at: when the seat's own timer runs out; with a time bank the bank
--   runs from there to due_at (NULL: no bank, the timer ends at due_at). The half-time
--   reminder is half of the timer (set_at to timer_at), not of the bank.
-- deadlines.warn_at: when a quarter of the timer is left (NULL: no warning, a computer's
--   or an automatic move); warned_at: the warning went out (it never goes twice).
ALTER TABLE deadlines ADD COLUMN timer_at REAL;
ALTER TABLE deadlines ADD COLUMN warn_at REAL;
ALTER TABLE deadlines ADD COLUMN warned_at REAL;

-- actions.asked_at: for a person's own move, when the decision it answers was put to
-- them (the lobby's expected pace reads the people's answer times from it); NULL for
-- the timer's and the computer's moves, and for every action logged before 0023.
ALTER TABLE actions ADD COLUMN asked_at REAL;

-- A seat's time bank in a hand (table option time_bank): the seconds left, written with
-- the move that used or topped it up. No row: the bank is whole (every hand starts so).
CREATE TABLE time_banks (
    hand_id INTEGER NOT NULL REFERENCES hands (id) ON DELETE CASCADE,
    seat    INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
    seconds REAL    NOT NULL CHECK (seconds >= 0),
    PRIMARY KEY (hand_id, seat)
) WITHOUT ROWID;
