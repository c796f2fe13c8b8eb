-- 0006_bot_settings (PostgreSQL): as ../0006_bot_settings.sql.
CREATE TABLE bot_settings (
    key        TEXT PRIMARY KEY,
    value      TEXT NOT NULL,
    updated_at DOUBLE PRECISION NOT NULL
);
