-- 0013_dm_order_known: seats.dm_order is kept by every bot from now on and read at a
-- restart (see the SQLite file of the same number). The decisions pending at the
-- upgrade are taken to have been DMed.
UPDATE seats SET dm_order = (
    SELECT h.number * 4294967296 + d.seq
    FROM deadlines d JOIN hands h ON h.id = d.hand_id JOIN matches m ON m.id = h.match_id
    WHERE m.table_id = seats.table_id AND d.seat = seats.seat AND h.status = 'live')
WHERE dm_order IS NULL AND EXISTS (
    SELECT 1
    FROM deadlines d JOIN hands h ON h.id = d.hand_id JOIN matches m ON m.id = h.match_id
    WHERE m.table_id = seats.table_id AND d.seat = seats.seat AND h.status = 'live');
