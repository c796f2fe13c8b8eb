-- 0035_owed_at_start: what a start-up owes is found without reading every live table
-- (issue 32, "start-up ≤ 2 s whatever the number of live tables").
--
-- deadlines.dm_owed: 1 while the seat's stored DM does not show the decision (written
-- with each decision, `bot.store.deadlines`: 1 unless the seat's dm_order already shows
-- it; the trigger below writes 0 as a DM showing it is stored, in the DM's own
-- statement: no extra trip on a click). `Presenter.owed_dms` reads only the rows this
-- partial index holds, then judges each as before (the seat's dm_order, closed DMs,
-- away seats): a row marked 1 that is not owed costs a read, never a DM; a row marked
-- 0 is shown (dm_order only grows while its hand is live; a restore forgets it and
-- marks every decision again, `Maintenance.after_restore`). Rows already stored: 0
-- where the seat's DM shows the decision, else 1.
ALTER TABLE deadlines ADD COLUMN dm_owed INTEGER NOT NULL DEFAULT 1 CHECK (dm_owed IN (0, 1));
UPDATE deadlines SET dm_owed = 0 WHERE EXISTS (
    SELECT 1 FROM hands h JOIN matches m ON m.id = h.match_id
    JOIN seats s ON s.table_id = m.table_id AND s.seat = deadlines.seat
    WHERE h.id = deadlines.hand_id AND s.dm_order >= h.number * 4294967296 + deadlines.seq);
CREATE INDEX deadlines_dm_owed ON deadlines (hand_id, seat) WHERE dm_owed = 1 AND kind <> 'computer';

CREATE FUNCTION seats_dm_shown() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE deadlines SET dm_owed = 0 WHERE dm_owed = 1 AND seat = NEW.seat
        AND hand_id = (SELECT h.id FROM matches m JOIN hands h ON h.match_id = m.id
                       AND h.status = 'live' WHERE m.table_id = NEW.table_id
                       AND m.status = 'playing')
        AND (SELECT number FROM hands WHERE id = deadlines.hand_id) * 4294967296 + seq
            <= NEW.dm_order;
    RETURN NULL;
END;
$$;

CREATE TRIGGER seats_dm_shown AFTER UPDATE OF dm_order ON seats FOR EACH ROW
    WHEN (NEW.dm_order IS NOT NULL AND NEW.dm_order IS DISTINCT FROM OLD.dm_order)
    EXECUTE FUNCTION seats_dm_shown();

-- stranded_tables: the tables playing whose match has no live hand with a deadline,
-- found once, here: only a crash of a version before the writes were one transaction
-- leaves one, and such a version refuses this database from now on (a schema newer
-- than its newest migration). Start-up mends those listed and takes each off the list
-- once mended (a crash meanwhile: the next start mends it), instead of looking for them
-- among every playing table at each start.
CREATE TABLE stranded_tables (
    table_id BIGINT PRIMARY KEY REFERENCES game_tables (id) ON DELETE CASCADE
);
INSERT INTO stranded_tables (table_id)
    SELECT t.id FROM game_tables t WHERE t.status = 'playing' AND NOT EXISTS (
        SELECT 1 FROM matches m JOIN hands h ON h.match_id = m.id AND h.status = 'live'
        JOIN deadlines d ON d.hand_id = h.id
        WHERE m.table_id = t.id AND m.status = 'playing');
