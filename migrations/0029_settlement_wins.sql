-- 0029_settlement_wins: how each win was made, kept with its settlement (issue 31).
--
-- The stats count self-draws and deal-ins, and the log alone cannot always tell them
-- apart: a draw is not an action, so the next seat's win right after a discard may be a
-- win on that discard or a self-draw after drawing. The winner's row now says which:
-- win 'self_draw', 'discard' or 'rob_kong', and from_seat the seat that dealt in (NULL
-- for a self-draw). NULL on the other seats' rows, and on rows settled before this
-- (bot/service/facts.py reads those from the log and the payments).
ALTER TABLE settlements ADD COLUMN win TEXT
    CHECK (win IS NULL OR win IN ('self_draw', 'discard', 'rob_kong'));
ALTER TABLE settlements ADD COLUMN from_seat INTEGER
    CHECK (from_seat IS NULL OR from_seat BETWEEN 0 AND 3);
