-- 0024_premove_or_draw (PostgreSQL): as ../0023_premove_or_draw.sql.
ALTER TABLE premoves ADD COLUMN or_draw INTEGER NOT NULL DEFAULT 1 CHECK (or_draw IN (0, 1));
