-- 0022_premoves (PostgreSQL): as ../0022_premoves.sql.
CREATE TABLE premoves (
    hand_id BIGINT  NOT NULL REFERENCES hands (id) ON DELETE CASCADE,
    seat    INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
    tile    TEXT    NOT NULL,
    set_at  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (hand_id, seat)
);
