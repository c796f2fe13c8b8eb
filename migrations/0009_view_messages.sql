-- 0009_view_messages: each seat's current hand DM, shared by the bot's processes.
--
-- seats.dm_message_id: the newest DM to the seat's player that still shows move
-- buttons (NULL: none). The presenter keeps it here only in shared mode (several
-- processes on one PostgreSQL database), so that whichever process DMs the player next
-- takes the buttons off it: a new id is swapped in and the one it replaces handed back
-- in one transaction (bot/store/presenter_memory.py). A single process keeps it in
-- memory as before, so on SQLite the column stays NULL.
ALTER TABLE seats ADD COLUMN dm_message_id INTEGER;
