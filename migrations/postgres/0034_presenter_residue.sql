-- 0034_presenter_residue (PostgreSQL): as ../0034_presenter_residue.sql.
ALTER TABLE game_tables ADD COLUMN presenter_residue TEXT;
