-- 0019_digests (PostgreSQL): as ../0019_digests.sql.
CREATE TABLE digests (
    user_id       BIGINT           PRIMARY KEY,
    due_at        DOUBLE PRECISION NOT NULL,
    created_at    DOUBLE PRECISION NOT NULL,
    claimed_by    TEXT,
    claimed_until DOUBLE PRECISION,
    CHECK ((claimed_by IS NULL) = (claimed_until IS NULL))
);

CREATE INDEX digests_by_due ON digests (due_at);
