-- 0021_claim_answers (PostgreSQL): as ../0021_claim_answers.sql.
CREATE TABLE claim_answers (
    hand_id BIGINT  NOT NULL REFERENCES hands (id) ON DELETE CASCADE,
    seat    INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
    tile    TEXT    NOT NULL CHECK (length(tile) = 2),
    kind    TEXT    NOT NULL CHECK (kind IN ('pong', 'kong')),
    PRIMARY KEY (hand_id, seat, tile)
);
