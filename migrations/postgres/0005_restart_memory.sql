-- 0005_restart_memory (PostgreSQL): as ../0005_restart_memory.sql.
ALTER TABLE game_tables ADD COLUMN ping_message_id BIGINT;

CREATE TABLE user_locales (
    user_id    BIGINT  PRIMARY KEY,
    locale     TEXT    NOT NULL CHECK (length(locale) BETWEEN 2 AND 16),
    updated_at DOUBLE PRECISION NOT NULL
);

INSERT INTO user_locales (user_id, locale, updated_at)
SELECT user_id, MAX(locale), 0 FROM seats
WHERE user_id IS NOT NULL AND locale IS NOT NULL
GROUP BY user_id;
