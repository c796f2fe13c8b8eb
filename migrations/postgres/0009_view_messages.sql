-- 0009_view_messages: each seat's current hand DM, shared by the bot's processes (see
-- the SQLite file of the same number for what the column is for).
ALTER TABLE seats ADD COLUMN dm_message_id BIGINT;
