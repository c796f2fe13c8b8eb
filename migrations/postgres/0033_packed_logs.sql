-- 0033_packed_logs (PostgreSQL): as ../0033_packed_logs.sql.
ALTER TABLE hand_logs ADD COLUMN packed BYTEA;
