-- 0030_settlement_caishen: how many 财神 the winner's hand held, kept with its settlement
-- (issue 31's "财神 wins").
--
-- A 财神 win is a win whose winning hand holds at least one 财神 (the hand's wildcard:
-- concealed tiles with the winning tile, and those inside its melds). Only the engine's
-- final state knows it, and the rebuild of the stats never replays a hand, so the
-- winner's row keeps the count: NULL on the other seats' rows, for a rule set without
-- 财神 (Shanghai), and on rows settled before this (bot/service/facts.py then falls back
-- to counting a win that scored 暴头 or 财飘).
ALTER TABLE settlements ADD COLUMN caishen INTEGER
    CHECK (caishen IS NULL OR caishen BETWEEN 0 AND 4);
