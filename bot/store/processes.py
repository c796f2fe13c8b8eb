"""Several processes on one database: their heartbeats (0010) and each table's change
counter (0008)."""

from __future__ import annotations

from bot.store.errors import NotFound
from bot.store.repository import Repository, TableBump, skip_locked


class Processes(Repository):
    """Heartbeats and table versions."""

    async def beat(self, owner: str, at: float, *, prune_before: float | None = None) -> None:
        """Process ``owner`` is alive at ``at``; with ``prune_before``, the rows of
        processes last seen before then (killed ones) go.

        Two transactions: processes beating at once after a long pause each find the
        others' rows old. Pruning in the upsert's transaction held one's own row while
        waiting for another's (PostgreSQL: a deadlock, a beat failing); the prune also
        skips rows another beat is writing now (they are alive)."""
        async with self._write() as db:
            await db.run("INSERT INTO process_heartbeats (owner, seen_at) VALUES (?, ?)"
                         " ON CONFLICT (owner) DO UPDATE SET seen_at = excluded.seen_at",
                         (owner, at))
        if prune_before is None:
            return
        async with self._write() as db:
            await db.run("DELETE FROM process_heartbeats WHERE owner IN"
                         " (SELECT owner FROM process_heartbeats WHERE seen_at < ?"
                         f"{skip_locked(db, 'process_heartbeats')})", (prune_before,))

    async def seen(self, since: float, *, besides: str) -> list[str]:
        """The processes other than ``besides`` seen alive at or after ``since``."""
        rows = await self._all("SELECT owner FROM process_heartbeats WHERE seen_at >= ?"
                                    " AND owner <> ? ORDER BY owner", (since, besides))
        return [str(r["owner"]) for r in rows]

    async def take_dead(self, before: float) -> list[tuple[str, float]]:
        """The processes last seen before ``before`` (killed), each as (owner, last
        seen), their rows removed in the same statement: of the processes that ask, one
        takes each dead one over."""
        async with self._write() as db:
            rows = await db.all("DELETE FROM process_heartbeats WHERE seen_at < ?"
                                " RETURNING owner, seen_at", (before,))
        return sorted((str(r["owner"]), float(r["seen_at"])) for r in rows)

    async def forget(self, owner: str) -> None:
        """Process ``owner`` stopped cleanly: it is no longer alive."""
        async with self._write() as db:
            await db.run("DELETE FROM process_heartbeats WHERE owner = ?", (owner,))

    async def touch(self, *, fence: TableBump | None) -> None:
        """Shared mode: put the table's change counter up with nothing else written (the
        other processes reload it: something it is built from changed elsewhere, such
        as a seated person's quiet hours); nothing without a fence."""
        if fence is not None and fence.armed:
            async with self._write(fence):
                pass

    async def table_version(self, table_id: int) -> int:
        """The table's change counter (`TableBump`); `NotFound` if there is no table."""
        row = await self._one("SELECT version FROM game_tables WHERE id = ?", (table_id,))
        if row is None:
            raise NotFound(f"no table {table_id}")
        return int(row["version"])
