-- 0032_compact_logs (PostgreSQL): as ../0032_compact_logs.sql; the statement is
-- compact_sql("postgres", "h.status = 'ended'").
--
-- The freed space is reused by later rows (autovacuum); VACUUM FULL gives it back.
CREATE TABLE hand_logs (
    hand_id    BIGINT PRIMARY KEY REFERENCES hands (id) ON DELETE CASCADE,
    log        TEXT   NOT NULL,
    log_digest BYTEA  CHECK (log_digest IS NULL OR octet_length(log_digest) = 32)
);

INSERT INTO hand_logs (hand_id, log, log_digest) SELECT hand_id, string_agg(token, ','
ORDER BY seq), (array_agg(log_digest ORDER BY seq DESC))[1] FROM (SELECT t.*, head ||
tiles || (CASE WHEN took < 0 THEN '-' ELSE '' END) || CASE WHEN mag < 64 THEN
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((mag /
1) % 64 AS INTEGER) + 1, 1) WHEN mag < 4096 THEN
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((mag /
64) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((mag /
1) % 64 AS INTEGER) + 1, 1) WHEN mag < 262144 THEN
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((mag /
4096) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((mag /
64) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((mag /
1) % 64 AS INTEGER) + 1, 1) WHEN mag < 16777216 THEN
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((mag /
262144) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((mag /
4096) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((mag /
64) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((mag /
1) % 64 AS INTEGER) + 1, 1) WHEN mag < 1073741824 THEN
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((mag /
16777216) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((mag /
262144) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((mag /
4096) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((mag /
64) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((mag /
1) % 64 AS INTEGER) + 1, 1) WHEN mag < 68719476736 THEN
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((mag /
1073741824) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((mag /
16777216) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((mag /
262144) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((mag /
4096) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((mag /
64) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((mag /
1) % 64 AS INTEGER) + 1, 1) WHEN mag < 4398046511104 THEN
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((mag /
68719476736) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((mag /
1073741824) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((mag /
16777216) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((mag /
262144) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((mag /
4096) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((mag /
64) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((mag /
1) % 64 AS INTEGER) + 1, 1) ELSE
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((mag /
4398046511104) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((mag /
68719476736) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((mag /
1073741824) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((mag /
16777216) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((mag /
262144) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((mag /
4096) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((mag /
64) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((mag /
1) % 64 AS INTEGER) + 1, 1) END || (CASE WHEN source = 'player' THEN (CASE WHEN asked_ms
IS NULL THEN '~' WHEN asked_ms = before_ms THEN '' ELSE '~' || (CASE WHEN waited < 0
THEN '-' ELSE '' END) || CASE WHEN wmag < 64 THEN
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((wmag /
1) % 64 AS INTEGER) + 1, 1) WHEN wmag < 4096 THEN
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((wmag /
64) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((wmag /
1) % 64 AS INTEGER) + 1, 1) WHEN wmag < 262144 THEN
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((wmag /
4096) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((wmag /
64) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((wmag /
1) % 64 AS INTEGER) + 1, 1) WHEN wmag < 16777216 THEN
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((wmag /
262144) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((wmag /
4096) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((wmag /
64) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((wmag /
1) % 64 AS INTEGER) + 1, 1) WHEN wmag < 1073741824 THEN
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((wmag /
16777216) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((wmag /
262144) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((wmag /
4096) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((wmag /
64) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((wmag /
1) % 64 AS INTEGER) + 1, 1) WHEN wmag < 68719476736 THEN
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((wmag /
1073741824) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((wmag /
16777216) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((wmag /
262144) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((wmag /
4096) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((wmag /
64) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((wmag /
1) % 64 AS INTEGER) + 1, 1) WHEN wmag < 4398046511104 THEN
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((wmag /
68719476736) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((wmag /
1073741824) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((wmag /
16777216) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((wmag /
262144) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((wmag /
4096) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((wmag /
64) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((wmag /
1) % 64 AS INTEGER) + 1, 1) ELSE
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((wmag /
4398046511104) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((wmag /
68719476736) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((wmag /
1073741824) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((wmag /
16777216) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((wmag /
262144) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((wmag /
4096) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((wmag /
64) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((wmag /
1) % 64 AS INTEGER) + 1, 1) END END) WHEN asked_ms IS NULL THEN '' ELSE '~' || (CASE
WHEN waited < 0 THEN '-' ELSE '' END) || CASE WHEN wmag < 64 THEN
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((wmag /
1) % 64 AS INTEGER) + 1, 1) WHEN wmag < 4096 THEN
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((wmag /
64) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((wmag /
1) % 64 AS INTEGER) + 1, 1) WHEN wmag < 262144 THEN
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((wmag /
4096) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((wmag /
64) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((wmag /
1) % 64 AS INTEGER) + 1, 1) WHEN wmag < 16777216 THEN
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((wmag /
262144) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((wmag /
4096) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((wmag /
64) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((wmag /
1) % 64 AS INTEGER) + 1, 1) WHEN wmag < 1073741824 THEN
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((wmag /
16777216) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((wmag /
262144) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((wmag /
4096) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((wmag /
64) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((wmag /
1) % 64 AS INTEGER) + 1, 1) WHEN wmag < 68719476736 THEN
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((wmag /
1073741824) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((wmag /
16777216) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((wmag /
262144) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((wmag /
4096) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((wmag /
64) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((wmag /
1) % 64 AS INTEGER) + 1, 1) WHEN wmag < 4398046511104 THEN
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((wmag /
68719476736) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((wmag /
1073741824) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((wmag /
16777216) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((wmag /
262144) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((wmag /
4096) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((wmag /
64) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((wmag /
1) % 64 AS INTEGER) + 1, 1) ELSE
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((wmag /
4398046511104) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((wmag /
68719476736) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((wmag /
1073741824) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((wmag /
16777216) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((wmag /
262144) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((wmag /
4096) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((wmag /
64) % 64 AS INTEGER) + 1, 1) ||
substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.', CAST((wmag /
1) % 64 AS INTEGER) + 1, 1) END END) AS token FROM (SELECT p.*, at_ms - before_ms AS
took, abs(at_ms - before_ms) AS mag, at_ms - asked_ms AS waited, abs(at_ms - asked_ms)
AS wmag, CASE WHEN payload = '{"kind":"' || kind || '","seat":' || CAST(seat AS TEXT) ||
COALESCE(',"tile":"' || tile || '"', '') || COALESCE(',"tiles":"' || tiles_field || '"',
'') || '}' AND length(regexp_replace(tiles, '[^0-9]', '', 'g')) = (CASE kind WHEN
'discard' THEN 1 WHEN 'chi' THEN 2 WHEN 'pong' THEN 2 WHEN 'kong' THEN 3 WHEN
'added_kong' THEN 1 WHEN 'concealed_kong' THEN 4 WHEN 'win' THEN 0 WHEN 'pass' THEN 0
END) AND tiles !~ '[^0-9a-z]' AND (tiles = '' OR tiles ~ '^([0-9]+[a-z])+$') AND head IS
NOT NULL AND (tile IS NOT NULL) = (kind IN ('discard', 'added_kong')) AND (tiles_field
IS NULL) = (kind IN ('discard', 'added_kong') OR kind IN ('win', 'pass')) THEN 1 ELSE 0
END AS fits FROM (SELECT a.hand_id, a.seq, a.log_digest, substr('0123456789ab', a.seat +
4 * (CASE a.source WHEN 'player' THEN 0 WHEN 'timeout' THEN 1 WHEN 'computer' THEN 2
END) + 1, 1) || (CASE a.kind WHEN 'discard' THEN 'd' WHEN 'chi' THEN 'c' WHEN 'pong'
THEN 'p' WHEN 'kong' THEN 'k' WHEN 'added_kong' THEN 'a' WHEN 'concealed_kong' THEN 'n'
WHEN 'win' THEN 'w' WHEN 'pass' THEN 's' END) AS head, COALESCE((a.payload::jsonb ->>
'tile'), '') || COALESCE((a.payload::jsonb ->> 'tiles'), '') AS tiles, (a.payload::jsonb
->> 'tile') AS tile, (a.payload::jsonb ->> 'tiles') AS tiles_field, a.kind, a.seat,
a.source, a.payload, CAST(floor(a.at * 1000 + 0.5) AS BIGINT) AS at_ms,
COALESCE(LAG(CAST(floor(a.at * 1000 + 0.5) AS BIGINT)) OVER (PARTITION BY a.hand_id
ORDER BY a.seq), CAST(floor(h.started_at * 1000 + 0.5) AS BIGINT)) AS before_ms,
CAST(floor(a.asked_at * 1000 + 0.5) AS BIGINT) AS asked_ms FROM hands h JOIN actions a
ON a.hand_id = h.id WHERE h.status = 'ended') p) t) k GROUP BY hand_id HAVING MIN(fits)
= 1 AND COUNT(*) = MAX(seq);

DELETE FROM actions WHERE hand_id IN (SELECT hand_id FROM hand_logs);
DELETE FROM time_banks WHERE hand_id IN (SELECT id FROM hands WHERE status = 'ended');
