-- 0027_ratings: each person's skill rating per server and rule set (issue 31), derived
-- from the finished matches' placements (match_facts) by bot/service/ratings.py's
-- formula, whose name is kept in bot_settings ('rating_formula'): all of it can be
-- dropped and rebuilt by replaying the finished matches in order (finished_at, match_id).
--
-- ratings: a person's rating now (mu, sigma: the Plackett-Luce model's), how many rated
-- matches made it, the number shown (mu - 3 sigma scaled, kept so a reader needs no
-- formula) and the end of the last match rated. A computer has none.
CREATE TABLE ratings (
    guild_id   INTEGER NOT NULL,
    rules      TEXT    NOT NULL,
    user_id    INTEGER NOT NULL,
    mu         REAL    NOT NULL,
    sigma      REAL    NOT NULL CHECK (sigma > 0),
    matches    INTEGER NOT NULL CHECK (matches >= 1),
    shown      INTEGER NOT NULL CHECK (shown >= 0),
    updated_at REAL    NOT NULL,
    PRIMARY KEY (guild_id, rules, user_id)
);

-- rating_changes: what each rated match did to each person's rating, at the match's end
-- (the weekly recap's "most improved" reads them by server and time).
CREATE TABLE rating_changes (
    match_id     INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    user_id      INTEGER NOT NULL,
    guild_id     INTEGER NOT NULL,
    rules        TEXT    NOT NULL,
    mu_before    REAL    NOT NULL,
    sigma_before REAL    NOT NULL,
    mu_after     REAL    NOT NULL,
    sigma_after  REAL    NOT NULL,
    shown_before INTEGER NOT NULL,
    shown_after  INTEGER NOT NULL,
    at           REAL    NOT NULL,
    PRIMARY KEY (match_id, user_id)
);

CREATE INDEX rating_changes_by_time ON rating_changes (guild_id, at);

-- rated_matches: every finished match the ratings have taken (rated 0: looked at and
-- not rated, two or more computers), so none is ever taken twice.
CREATE TABLE rated_matches (
    match_id    INTEGER PRIMARY KEY REFERENCES matches (id) ON DELETE CASCADE,
    guild_id    INTEGER NOT NULL,
    rules       TEXT    NOT NULL,
    finished_at REAL    NOT NULL,
    rated       INTEGER NOT NULL CHECK (rated IN (0, 1))
);

-- rating_cursors: per server and rule set, the last match taken (NULL: none yet). Its
-- row is what a rating's transaction locks first, so two processes rate one server's
-- rule set one match after the other; a match that finished before the cursor (a
-- process committed it late) makes that server's rule set be replayed whole.
CREATE TABLE rating_cursors (
    guild_id    INTEGER NOT NULL,
    rules       TEXT    NOT NULL,
    finished_at REAL,
    match_id    INTEGER,
    PRIMARY KEY (guild_id, rules),
    CHECK ((finished_at IS NULL) = (match_id IS NULL))
);
