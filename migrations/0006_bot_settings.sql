-- 0006_bot_settings: what the bot keeps of its own, one text per key; first the
-- fingerprint of the slash commands it last synced to each scope
-- ("commands:global", "commands:guild:<id>"), so that a start syncs only a changed tree.
CREATE TABLE bot_settings (
    key        TEXT PRIMARY KEY,
    value      TEXT NOT NULL,
    updated_at REAL NOT NULL
);
