-- 0007_hand_snapshots: a hand's state every few actions, so that a restart replays only
-- the actions after the newest one. The log (actions) stays the truth: a snapshot is
-- used only when its version is the running engine's, its state text still hashes to
-- state_digest, and log_digest is the digest of the hand's actions 1..seq as they are
-- in the log now; anything else is ignored and the whole log replayed.
--
-- version: the engine's snapshot format and code fingerprint that wrote it.
-- log_digest: SHA-256 (hex) over actions 1..seq, each "seq␟seat␟kind␟payload␞"
--   (bot/store/rows.py, log_digest). state: the engine's explicit JSON encoding
--   (engine/game/snapshot.py), never pickle. A hand keeps only its newest snapshot, and
--   none once it has ended (the log alone rebuilds an ended hand).
CREATE TABLE hand_snapshots (
    hand_id      INTEGER NOT NULL REFERENCES hands (id) ON DELETE CASCADE,
    seq          INTEGER NOT NULL CHECK (seq >= 1),
    version      TEXT    NOT NULL CHECK (length(version) > 0),
    log_digest   TEXT    NOT NULL CHECK (length(log_digest) = 64
                                         AND log_digest NOT GLOB '*[^0-9a-f]*'),
    state        TEXT    NOT NULL,
    state_digest TEXT    NOT NULL CHECK (length(state_digest) = 64
                                         AND state_digest NOT GLOB '*[^0-9a-f]*'),
    PRIMARY KEY (hand_id, seq)
) WITHOUT ROWID;

-- A hand keeps only its newest snapshot (only the newest is ever read): writing one
-- deletes the older ones in the same statement, so a move pays for one statement.
CREATE TRIGGER hand_snapshots_keep_newest AFTER INSERT ON hand_snapshots
BEGIN
    DELETE FROM hand_snapshots WHERE hand_id = NEW.hand_id AND seq < NEW.seq;
END;
