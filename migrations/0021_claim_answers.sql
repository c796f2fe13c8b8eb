-- 0021_claim_answers: the claims a person answered in advance for one hand (issue 30).
--
-- "pong 5m" (kind pong, tile 5m): when a claim window offers this seat that pong, and
-- no win, it is played at once instead of asking; "kong 5m" the same for the exposed
-- kong. One answer per tile (a kong replaces a pong of it). Written from the person's
-- DM while they are not deciding; deleted with the rest of the hand's state when it
-- ends (and gone with the hand's row). The standing "never chi" is a seat's choice
-- (seats.choices), not a row here.
CREATE TABLE claim_answers (
    hand_id INTEGER NOT NULL REFERENCES hands (id) ON DELETE CASCADE,
    seat    INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
    tile    TEXT    NOT NULL CHECK (length(tile) = 2),
    kind    TEXT    NOT NULL CHECK (kind IN ('pong', 'kong')),
    PRIMARY KEY (hand_id, seat, tile)
);
