-- 0008_shared_processes: several bot processes on one database (PostgreSQL; SQLite
-- allows one process, but the columns are the same so both backends share one store).
--
-- game_tables.version: the table's change counter. In shared mode a process reads it at
-- the start of every command under the table's lock and reloads the table when another
-- process moved it on; after its own changes it adds one (bot/service/README.md).
--
-- claimed_by / claimed_until: a deadline's firing, or an announcement's delivery, is
-- claimed by one process (its random owner id) until a lease runs out; a process killed
-- mid-claim leaves a lease the others take over once it has passed.
ALTER TABLE game_tables ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
ALTER TABLE deadlines ADD COLUMN claimed_by TEXT;
ALTER TABLE deadlines ADD COLUMN claimed_until REAL;
ALTER TABLE announcements ADD COLUMN claimed_by TEXT;
ALTER TABLE announcements ADD COLUMN claimed_until REAL;
