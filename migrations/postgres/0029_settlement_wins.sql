-- 0029_settlement_wins (PostgreSQL): as ../0029_settlement_wins.sql.
ALTER TABLE settlements ADD COLUMN win TEXT
    CHECK (win IS NULL OR win IN ('self_draw', 'discard', 'rob_kong'));
ALTER TABLE settlements ADD COLUMN from_seat INTEGER
    CHECK (from_seat IS NULL OR from_seat BETWEEN 0 AND 3);
