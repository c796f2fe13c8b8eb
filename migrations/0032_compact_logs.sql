-- 0032_compact_logs: a finished hand costs its log (issue 32): its actions kept as one
-- short text instead of a row each (bot/store/compact.py tells the form: a token an
-- action, about 8 characters, times to the millisecond, the running digest of the log
-- kept as its last action's). Every hand that has ended gets its row here; its action
-- rows and its time banks go. A hand whose rows do not fit the form (none the bot
-- wrote) keeps them. The statement below is compact_sql("sqlite", "h.status =
-- 'ended'"), the one a hand ending now runs for itself (tests/store/
-- test_store_compact.py holds the two the same).
--
-- The file does not shrink: SQLite reuses the freed pages (VACUUM gives them back).
CREATE TABLE hand_logs (
    hand_id    INTEGER PRIMARY KEY REFERENCES hands (id) ON DELETE CASCADE,
    log        TEXT    NOT NULL,
    log_digest BLOB    CHECK (log_digest IS NULL
                              OR (typeof(log_digest) = 'blob' AND length(log_digest) = 32))
);

INSERT INTO hand_logs (hand_id, log, log_digest) SELECT hand_id, log, log_digest FROM
(SELECT hand_id, seq, log_digest, group_concat(token, ',') OVER (PARTITION BY hand_id
ORDER BY seq ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS log, MIN(fits)
OVER (PARTITION BY hand_id ORDER BY seq ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED
FOLLOWING) AS fit, COUNT(*) OVER (PARTITION BY hand_id ORDER BY seq ROWS BETWEEN
UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS n, MAX(seq) OVER (PARTITION BY hand_id
ORDER BY seq ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS last FROM
(SELECT t.*, head || tiles || (CASE WHEN took < 0 THEN '-' ELSE '' END) || CASE WHEN mag
< 64 THEN substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.',
CAST((mag / 1) % 64 AS INTEGER) + 1, 1) WHEN mag < 4096 THEN
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
'') || '}' AND length(tiles) -
length(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(tiles,
'0', ''), '1', ''), '2', ''), '3', ''), '4', ''), '5', ''), '6', ''), '7', ''), '8',
''), '9', '')) = (CASE kind WHEN 'discard' THEN 1 WHEN 'chi' THEN 2 WHEN 'pong' THEN 2
WHEN 'kong' THEN 3 WHEN 'added_kong' THEN 1 WHEN 'concealed_kong' THEN 4 WHEN 'win' THEN
0 WHEN 'pass' THEN 0 END) AND tiles NOT GLOB '*[^0-9a-z]*' AND (tiles = '' OR (tiles
GLOB '[0-9]*' AND tiles GLOB '*[0-9][a-z]' AND tiles NOT GLOB '*[a-z][a-z]*')) AND head
IS NOT NULL AND (tile IS NOT NULL) = (kind IN ('discard', 'added_kong')) AND
(tiles_field IS NULL) = (kind IN ('discard', 'added_kong') OR kind IN ('win', 'pass'))
THEN 1 ELSE 0 END AS fits FROM (SELECT a.hand_id, a.seq, a.log_digest,
substr('0123456789ab', a.seat + 4 * (CASE a.source WHEN 'player' THEN 0 WHEN 'timeout'
THEN 1 WHEN 'computer' THEN 2 END) + 1, 1) || (CASE a.kind WHEN 'discard' THEN 'd' WHEN
'chi' THEN 'c' WHEN 'pong' THEN 'p' WHEN 'kong' THEN 'k' WHEN 'added_kong' THEN 'a' WHEN
'concealed_kong' THEN 'n' WHEN 'win' THEN 'w' WHEN 'pass' THEN 's' END) AS head,
COALESCE(json_extract(a.payload, '$.tile'), '') || COALESCE(json_extract(a.payload,
'$.tiles'), '') AS tiles, json_extract(a.payload, '$.tile') AS tile,
json_extract(a.payload, '$.tiles') AS tiles_field, a.kind, a.seat, a.source, a.payload,
CAST(a.at * 1000 + 0.5 AS INTEGER) AS at_ms, COALESCE(LAG(CAST(a.at * 1000 + 0.5 AS
INTEGER)) OVER (PARTITION BY a.hand_id ORDER BY a.seq), CAST(h.started_at * 1000 + 0.5
AS INTEGER)) AS before_ms, CAST(a.asked_at * 1000 + 0.5 AS INTEGER) AS asked_ms FROM
hands h JOIN actions a ON a.hand_id = h.id WHERE h.status = 'ended') p) t) k) w WHERE
seq = last AND fit = 1 AND n = last;

DELETE FROM actions WHERE hand_id IN (SELECT hand_id FROM hand_logs);
DELETE FROM time_banks WHERE hand_id IN (SELECT id FROM hands WHERE status = 'ended');
