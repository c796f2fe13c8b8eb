-- 0007_hand_snapshots (PostgreSQL): as ../0007_hand_snapshots.sql (which tells what
-- the digests are), the trigger in PL/pgSQL.
CREATE TABLE hand_snapshots (
    hand_id      BIGINT  NOT NULL REFERENCES hands (id) ON DELETE CASCADE,
    seq          INTEGER NOT NULL CHECK (seq >= 1),
    version      TEXT    NOT NULL CHECK (length(version) > 0),
    log_digest   TEXT    NOT NULL CHECK (length(log_digest) = 64
                                         AND log_digest !~ '[^0-9a-f]'),
    state        TEXT    NOT NULL,
    state_digest TEXT    NOT NULL CHECK (length(state_digest) = 64
                                         AND state_digest !~ '[^0-9a-f]'),
    PRIMARY KEY (hand_id, seq)
);

-- A hand keeps only its newest snapshot: writing one deletes the older ones.
CREATE FUNCTION hand_snapshots_keep_newest() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM hand_snapshots WHERE hand_id = NEW.hand_id AND seq < NEW.seq;
    RETURN NULL;
END;
$$;

CREATE TRIGGER hand_snapshots_keep_newest AFTER INSERT ON hand_snapshots
    FOR EACH ROW EXECUTE FUNCTION hand_snapshots_keep_newest();
