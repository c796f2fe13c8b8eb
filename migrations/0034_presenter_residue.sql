-- 0034_presenter_residue: what the Discord presenter knew of a table only in memory,
-- written when the table left memory idle (issue 32, "an idle table costs nothing";
-- bot/discord/delivery/table_state.py `Tables.drop`) and read back, then cleared, the
-- next time the presenter shows the table: the decision each seat was last shown, the
-- mentions already made for open decisions, the hand each closed DM was refused in,
-- and each seat's DM still showing move buttons. JSON text; NULL: nothing kept.
ALTER TABLE game_tables ADD COLUMN presenter_residue TEXT;
