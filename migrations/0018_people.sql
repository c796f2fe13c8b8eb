-- 0018_people: what a person sets for themself, the same at every table of every server
-- (issue 30), one row per Discord user, written by `/mahjong quiet` and `/mahjong
-- vacation`.
--
-- time_zone: an IANA name ("Asia/Shanghai"; NULL: none chosen). quiet_start, quiet_end:
-- the daily quiet hours as minutes of the day on that zone's clock (end before start:
-- the window crosses midnight; both NULL: no quiet hours; never equal).
-- vacation_from, vacation_until: a leave of whole days in real time (both NULL: none);
-- each table honours it only up to its own vacation_days option, counted from
-- vacation_from.
CREATE TABLE people (
    user_id        INTEGER PRIMARY KEY,
    time_zone      TEXT    CHECK (time_zone IS NULL OR length(time_zone) BETWEEN 1 AND 64),
    quiet_start    INTEGER CHECK (quiet_start IS NULL OR quiet_start BETWEEN 0 AND 1439),
    quiet_end      INTEGER CHECK (quiet_end IS NULL OR quiet_end BETWEEN 0 AND 1439),
    vacation_from  REAL,
    vacation_until REAL,
    updated_at     REAL    NOT NULL,
    CHECK ((quiet_start IS NULL) = (quiet_end IS NULL)),
    CHECK (quiet_start IS NULL OR (quiet_start <> quiet_end AND time_zone IS NOT NULL)),
    CHECK ((vacation_from IS NULL) = (vacation_until IS NULL)),
    CHECK (vacation_until IS NULL OR vacation_until > vacation_from)
);
