-- 0018_people (PostgreSQL): as ../0018_people.sql.
CREATE TABLE people (
    user_id        BIGINT  PRIMARY KEY,
    time_zone      TEXT    CHECK (time_zone IS NULL OR length(time_zone) BETWEEN 1 AND 64),
    quiet_start    INTEGER CHECK (quiet_start IS NULL OR quiet_start BETWEEN 0 AND 1439),
    quiet_end      INTEGER CHECK (quiet_end IS NULL OR quiet_end BETWEEN 0 AND 1439),
    vacation_from  DOUBLE PRECISION,
    vacation_until DOUBLE PRECISION,
    updated_at     DOUBLE PRECISION NOT NULL,
    CHECK ((quiet_start IS NULL) = (quiet_end IS NULL)),
    CHECK (quiet_start IS NULL OR (quiet_start <> quiet_end AND time_zone IS NOT NULL)),
    CHECK ((vacation_from IS NULL) = (vacation_until IS NULL)),
    CHECK (vacation_until IS NULL OR vacation_until > vacation_from)
);
