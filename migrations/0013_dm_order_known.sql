-- 0013_dm_order_known: seats.dm_order is kept by every bot from now on, not only in
-- shared mode, and read at a restart.
--
-- A restart (and, in shared mode, a survivor of a killed process) DMs each person whose
-- pending decision is newer than the step their stored DM shows (seats.dm_order, 0011:
-- hand number x 2^32 + step; NULL: no decision DMed yet): a crash between a move's
-- commit and its DMs no longer leaves the player without buttons. A single bot did not
-- keep the column before this migration, so the decisions pending now are taken to
-- have been DMed (a bot is upgraded after a clean stop): the first start after the
-- upgrade DMs nobody again.
UPDATE seats SET dm_order = (
    SELECT h.number * 4294967296 + d.seq
    FROM deadlines d JOIN hands h ON h.id = d.hand_id JOIN matches m ON m.id = h.match_id
    WHERE m.table_id = seats.table_id AND d.seat = seats.seat AND h.status = 'live')
WHERE dm_order IS NULL AND EXISTS (
    SELECT 1
    FROM deadlines d JOIN hands h ON h.id = d.hand_id JOIN matches m ON m.id = h.match_id
    WHERE m.table_id = seats.table_id AND d.seat = seats.seat AND h.status = 'live');
