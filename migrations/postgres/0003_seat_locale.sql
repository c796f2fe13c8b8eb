-- 0003_seat_locale (PostgreSQL): as ../0003_seat_locale.sql.
ALTER TABLE seats ADD COLUMN locale TEXT
    CHECK (locale IS NULL OR length(locale) BETWEEN 2 AND 16);
