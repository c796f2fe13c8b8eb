-- 0020_digests_kept (PostgreSQL): as ../0020_digests_kept.sql.
ALTER TABLE digests ADD COLUMN sent_at DOUBLE PRECISION;
