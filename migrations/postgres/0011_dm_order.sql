-- 0011_dm_order: the step a seat's stored DM shows (see the SQLite file of the same
-- number for what the column is for).
ALTER TABLE seats ADD COLUMN dm_order BIGINT;
