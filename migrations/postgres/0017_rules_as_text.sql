-- 0017_rules_as_text (PostgreSQL): as ../0017_rules_as_text.sql, the rule-name CHECKs
-- of game_tables (0001, named by PostgreSQL) and leaderboard (0014) become "not empty".
ALTER TABLE game_tables DROP CONSTRAINT game_tables_rules_check;
ALTER TABLE game_tables ADD CONSTRAINT game_tables_rules_check CHECK (length(rules) > 0);
ALTER TABLE leaderboard DROP CONSTRAINT leaderboard_rules_check;
ALTER TABLE leaderboard ADD CONSTRAINT leaderboard_rules_check CHECK (length(rules) > 0);
