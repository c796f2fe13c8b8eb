-- 0003_seat_locale: the Discord locale each seated person last used, so their direct
-- messages keep speaking that language after a restart (NULL: not known yet).
ALTER TABLE seats ADD COLUMN locale TEXT
    CHECK (locale IS NULL OR length(locale) BETWEEN 2 AND 16);
