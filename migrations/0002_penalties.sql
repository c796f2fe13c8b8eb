-- 0002_penalties: amounts charged outside any hand's settlement (the Hangzhou 逃跑
-- abandon penalty, hangzhou.md "Leaving a match"), kept so that a restart rebuilds a
-- match's totals exactly. Unlike settlements they need not sum to zero.
CREATE TABLE penalties (
    id       INTEGER PRIMARY KEY,
    match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    seat     INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
    amount   TEXT    NOT NULL CHECK (length(amount) > 0 AND amount NOT GLOB '*[^0-9/-]*'),
    reason   TEXT    NOT NULL CHECK (length(reason) > 0),
    at       REAL    NOT NULL
);

CREATE INDEX penalties_by_match ON penalties (match_id);
