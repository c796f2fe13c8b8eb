-- 0023_clock (PostgreSQL): as ../0018_clock.sql.
ALTER TABLE deadlines ADD COLUMN timer_at DOUBLE PRECISION;
ALTER TABLE deadlines ADD COLUMN warn_at DOUBLE PRECISION;
ALTER TABLE deadlines ADD COLUMN warned_at DOUBLE PRECISION;

ALTER TABLE actions ADD COLUMN asked_at DOUBLE PRECISION;

CREATE TABLE time_banks (
    hand_id BIGINT           NOT NULL REFERENCES hands (id) ON DELETE CASCADE,
    seat    INTEGER          NOT NULL CHECK (seat BETWEEN 0 AND 3),
    seconds DOUBLE PRECISION NOT NULL CHECK (seconds >= 0),
    PRIMARY KEY (hand_id, seat)
);
