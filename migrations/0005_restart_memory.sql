-- 0005_restart_memory: what a restart must not forget.
--
-- The channel's "your turn" mention, kept with the table's other message ids, so that
-- after a restart the old mention is deleted when the next one is posted or the hand
-- ends (NULL: no mention standing).
ALTER TABLE game_tables ADD COLUMN ping_message_id INTEGER;

-- The Discord locale each person last used with the bot, kept per user rather than
-- per seat (0003), so that an interaction before having a seat (/mahjong new, Join)
-- is remembered too. Their direct messages speak it. seats.locale is no longer read.
CREATE TABLE user_locales (
    user_id    INTEGER PRIMARY KEY,
    locale     TEXT    NOT NULL CHECK (length(locale) BETWEEN 2 AND 16),
    updated_at REAL    NOT NULL
);

-- What 0003 kept on seats carries over (one seat's locale per person).
INSERT INTO user_locales (user_id, locale, updated_at)
SELECT user_id, MAX(locale), 0 FROM seats
WHERE user_id IS NOT NULL AND locale IS NOT NULL
GROUP BY user_id;
