-- 0022_premoves: the next discard a seat chose in advance (issue 30, "next: 9p").
--
-- One row per seat of a live hand at most: the tile its person chose, while it was
-- not their turn, to discard at their next turn when the draw offers no win and no
-- kong. Private to that person (nothing public reads it). Deleted when it is played,
-- when the person is asked instead, after the seat's own claim, and when the hand
-- ends (or its table is cancelled), each in the transaction of that change.
CREATE TABLE premoves (
    hand_id INTEGER NOT NULL REFERENCES hands (id) ON DELETE CASCADE,
    seat    INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
    tile    TEXT    NOT NULL,
    set_at  REAL    NOT NULL,
    PRIMARY KEY (hand_id, seat)
);
