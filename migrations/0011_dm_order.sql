-- 0011_dm_order: the step a seat's stored DM shows (shared mode, see 0009).
--
-- seats.dm_order: hand number × 2^32 + step of the DM in seats.dm_message_id (NULL:
-- unknown). Two processes may post one seat's DMs out of order: one drew step n, the
-- other drew step n+1 and sent it first. A DM is swapped in only when its order is not
-- older than the stored one's; an older DM arriving last loses its own buttons instead
-- of taking them off the newer one (which would leave the player with stale buttons).
ALTER TABLE seats ADD COLUMN dm_order INTEGER;
