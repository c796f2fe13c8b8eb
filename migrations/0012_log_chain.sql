-- 0012_log_chain: each action carries the running digest of its hand's log up to it,
-- so a restart checks a snapshot against the log by reading one row (the action the
-- snapshot was written with) instead of reading and hashing every action before it.
--
-- actions.log_digest: SHA-256 (its 32 bytes; hex in the code and in hand_snapshots) of
--   the previous action's log_digest as hex (empty for the first action) followed by
--   this action as "seq␟seat␟kind␟payload␞" (bot/store/rows.py, next_log_digest).
--   Written with the action, chained from the stored digest of the action before it
--   (the append refuses a digest that does not follow it); NULL only for actions
--   written before this migration (their hand's digest is then worked out from the rows
--   themselves). A snapshot is sealed with its action's log_digest.
ALTER TABLE actions ADD COLUMN log_digest BLOB
    CHECK (log_digest IS NULL OR (typeof(log_digest) = 'blob' AND length(log_digest) = 32));

-- The log is the truth and is only ever appended to: a stored action is never rewritten
-- (a digest stored beside a rewritten payload would vouch for a log that is not there).
CREATE TRIGGER actions_append_only BEFORE UPDATE ON actions
BEGIN
    SELECT RAISE(ABORT, 'actions are append-only: a stored action is never rewritten');
END;
