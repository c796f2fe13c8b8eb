-- 0024_premove_or_draw: a next discard chosen in advance is "9p, or my draw if it helps
-- less" (issue 30, amendment A): at the turn the bot plays whichever of the two the
-- engine's own advice keeps less. or_draw 0: its person switched that off for this
-- pre-move (then exactly the chosen tile). Kept when the tile is changed; a new
-- pre-move starts on.
ALTER TABLE premoves ADD COLUMN or_draw INTEGER NOT NULL DEFAULT 1 CHECK (or_draw IN (0, 1));
