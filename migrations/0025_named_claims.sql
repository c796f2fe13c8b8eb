-- 0025_named_claims: a claim answered in advance may be a named chi, and may name the
-- discard that follows it (issue 30, amendments E and G).
--
-- kind 'chi' (tile 5m, with '3m4m': the two tiles of the seat's own hand it melds with,
-- in notation, sorted) plays that chi when the window offers exactly it (only the seat
-- after the discarder is ever offered one: the engine decides). ``then_discard`` (a tile's
-- notation, or NULL): after the claim is played, that discard is played at once when
-- still held and legal ("pong 5m, then 9p"); otherwise the seat is asked. Still one
-- answer per tile. SQLite changes a CHECK by rebuilding the table (create, copy, drop,
-- rename; the runner has foreign keys off meanwhile and checks them before committing).
CREATE TABLE claim_answers_new (
    hand_id INTEGER NOT NULL REFERENCES hands (id) ON DELETE CASCADE,
    seat    INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
    tile    TEXT    NOT NULL CHECK (length(tile) = 2),
    kind    TEXT    NOT NULL CHECK (kind IN ('pong', 'kong', 'chi')),
    with_tiles TEXT CHECK ((kind = 'chi') = (with_tiles IS NOT NULL)
                           AND (with_tiles IS NULL OR length(with_tiles) = 4)),
    then_discard TEXT CHECK (then_discard IS NULL OR length(then_discard) = 2),
    PRIMARY KEY (hand_id, seat, tile)
);

INSERT INTO claim_answers_new (hand_id, seat, tile, kind)
SELECT hand_id, seat, tile, kind FROM claim_answers;

DROP TABLE claim_answers;
ALTER TABLE claim_answers_new RENAME TO claim_answers;
