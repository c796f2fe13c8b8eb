-- 0014_leaderboard_rules: a channel's standings are kept per rule set (see the SQLite
-- file of the same number: why, and where the rows already there go — the rule set of
-- the newest table of their channel that began a match, else shanghai; a channel that
-- played both before this keeps its mixed sums whole, under the rule set it played last).
ALTER TABLE leaderboard ADD COLUMN rules TEXT;
UPDATE leaderboard l SET rules = COALESCE(
    (SELECT t.rules FROM game_tables t
     WHERE t.channel_id = l.channel_id
       AND EXISTS (SELECT 1 FROM matches m WHERE m.table_id = t.id)
     ORDER BY t.id DESC LIMIT 1), 'shanghai');
ALTER TABLE leaderboard ALTER COLUMN rules SET NOT NULL;
ALTER TABLE leaderboard ADD CONSTRAINT leaderboard_rules_check
    CHECK (rules IN ('shanghai', 'hangzhou'));
ALTER TABLE leaderboard DROP CONSTRAINT leaderboard_pkey;
ALTER TABLE leaderboard ADD PRIMARY KEY (channel_id, rules, player_key);
