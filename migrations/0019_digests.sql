-- 0019_digests: the one DM a person is owed when their quiet hours (or leave) end and
-- decisions wait for them (issue 30), instead of a notification per table.
--
-- One row per person owed one: due_at, the moment their quiet hours end (real time);
-- written when a process sees them quiet with a decision waiting, deleted once the DM
-- went (or nothing waited any more). claimed_by / claimed_until: with several
-- processes on one database, the process sending it and until when (a killed one's
-- claim runs out and another takes the row), as deadlines and announcements are claimed.
CREATE TABLE digests (
    user_id       INTEGER PRIMARY KEY,
    due_at        REAL    NOT NULL,
    created_at    REAL    NOT NULL,
    claimed_by    TEXT,
    claimed_until REAL,
    CHECK ((claimed_by IS NULL) = (claimed_until IS NULL))
);

CREATE INDEX digests_by_due ON digests (due_at);
