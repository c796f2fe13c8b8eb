-- 0015_hand_replies: each seat's `/mahjong hand` reply that follows the game, shared by
-- the bot's processes (see the SQLite file of the same number for what the columns are
-- for).
ALTER TABLE seats ADD COLUMN reply_message_id BIGINT;
ALTER TABLE seats ADD COLUMN reply_token TEXT;
ALTER TABLE seats ADD COLUMN reply_user_id BIGINT;
ALTER TABLE seats ADD COLUMN reply_until DOUBLE PRECISION;
ALTER TABLE seats ADD COLUMN reply_order BIGINT;
