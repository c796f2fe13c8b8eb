-- 0010_process_heartbeats: each bot process in shared mode (several on one database)
-- keeps a row here, its random owner id and when it was last seen alive, refreshed by
-- its deadline poller. At start-up a process that finds no other process seen lately
-- knows every process was down: the deadlines that came due meanwhile get the restart
-- grace period, as for a single bot. A process that stops cleanly removes its row; a
-- killed one's row simply grows old (and is pruned by the others).
CREATE TABLE process_heartbeats (
    owner   TEXT PRIMARY KEY,
    seen_at REAL NOT NULL
);
