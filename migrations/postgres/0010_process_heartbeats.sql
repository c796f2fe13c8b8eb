-- 0010_process_heartbeats: each shared-mode process's last sign of life (see the SQLite
-- file of the same number).
CREATE TABLE process_heartbeats (
    owner   TEXT PRIMARY KEY,
    seen_at DOUBLE PRECISION NOT NULL
);
