-- 0015_hand_replies: each seat's `/mahjong hand` reply that follows the game, shared by
-- the bot's processes.
--
-- For 15 minutes an interaction's token lets the bot edit its reply; the reply then
-- follows the game (bot/discord/replies.py). A single process keeps it in memory, so
-- on SQLite the columns stay NULL. In shared mode (several processes on one PostgreSQL
-- database) the process that makes a move is the one that draws it, so each seat's
-- newest reply is kept here for whichever process it is:
-- seats.reply_message_id: the reply (NULL: none follows the seat);
-- seats.reply_token: its interaction's token (an edit's credential, valid 15 minutes);
-- seats.reply_user_id: the person it was made for (a seat taken over ends it);
-- seats.reply_until: the Unix time after which it is not edited any more;
-- seats.reply_order: the state it shows, hand number × 2^32 + actions (a newer reply
-- replaces it whole; a redraw lands only over an older state).
ALTER TABLE seats ADD COLUMN reply_message_id INTEGER;
ALTER TABLE seats ADD COLUMN reply_token TEXT;
ALTER TABLE seats ADD COLUMN reply_user_id INTEGER;
ALTER TABLE seats ADD COLUMN reply_until REAL;
ALTER TABLE seats ADD COLUMN reply_order INTEGER;
