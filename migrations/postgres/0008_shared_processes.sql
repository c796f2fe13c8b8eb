-- 0008_shared_processes: several bot processes on one database (see the SQLite file of
-- the same number for what each column is for).
ALTER TABLE game_tables ADD COLUMN version BIGINT NOT NULL DEFAULT 0;
ALTER TABLE deadlines ADD COLUMN claimed_by TEXT;
ALTER TABLE deadlines ADD COLUMN claimed_until DOUBLE PRECISION;
ALTER TABLE announcements ADD COLUMN claimed_by TEXT;
ALTER TABLE announcements ADD COLUMN claimed_until DOUBLE PRECISION;
