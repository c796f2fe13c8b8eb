"""Digests (0019): the one DM a person is owed when their quiet hours (or leave) end and
decisions wait for them. A row is written when a process sees the person quiet with a
decision waiting (`owe`), claimed when it comes due (several processes on one
database: one takes it, with a lease, as deadlines and announcements are claimed), and
deleted once its DM went or nothing waited any more (`done`)."""

from __future__ import annotations

from dataclasses import replace

from bot.store.deadlines import WAITING
from bot.store.repository import Repository, skip_locked
from bot.store.rows import DigestRow, PersonRow


class Digests(Repository):
    """The digests owed."""

    async def resting_and_waited_for(self, now: float) -> list[PersonRow]:
        """The people who set quiet hours (or are on leave at ``now``), for whom a
        decision waits and no digest is owed yet: those a process looks at to see
        whether they are quiet now."""
        rows = await self._all(
            "SELECT p.* FROM people p WHERE (p.quiet_start IS NOT NULL"
            " OR p.vacation_until > ?)"
            " AND NOT EXISTS (SELECT 1 FROM digests g WHERE g.user_id = p.user_id)"
            f" AND EXISTS (SELECT 1 {WAITING} AND s.user_id = p.user_id)"
            " ORDER BY p.user_id", (now,))
        return [PersonRow.of(r) for r in rows]

    async def owe(self, user_id: int, due_at: float, *, at: float) -> bool:
        """A digest is owed to ``user_id`` at ``due_at``: False if one already was (it
        stands as it was)."""
        async with self._write() as db:
            count = await db.run("INSERT INTO digests (user_id, due_at, created_at)"
                                 " VALUES (?, ?, ?) ON CONFLICT (user_id) DO NOTHING",
                                 (user_id, due_at, at))
            return count > 0

    async def owed(self, user_id: int) -> DigestRow | None:
        row = await self._one("SELECT * FROM digests WHERE user_id = ?", (user_id,))
        return DigestRow.of(row) if row is not None else None

    async def earliest(self) -> float | None:
        """When the next digest comes due (None: none is owed)."""
        row = await self._one("SELECT min(due_at) AS at FROM digests")
        return None if row is None or row["at"] is None else float(row["at"])

    async def claim(self, now: float, *, owner: str, until: float,
                    limit: int = 20) -> list[DigestRow]:
        """Claim for ``owner`` (until ``until``) the digests due by ``now`` that nobody
        holds (or whose holder's lease ran out: a killed process), soonest first; on
        PostgreSQL ``FOR UPDATE SKIP LOCKED``, so two processes never take the same."""
        async with self._write() as db:
            rows = await db.all("SELECT * FROM digests WHERE due_at <= ?"
                                " AND (claimed_until IS NULL OR claimed_until < ?)"
                                f" ORDER BY due_at, user_id LIMIT ?{skip_locked(db, 'digests')}",
                                (now, now, limit))
            await db.run_many("UPDATE digests SET claimed_by = ?, claimed_until = ?"
                              " WHERE user_id = ?", [(owner, until, r["user_id"]) for r in rows])
        return [replace(DigestRow.of(r), claimed_by=owner, claimed_until=until) for r in rows]

    async def put_off(self, user_id: int, due_at: float, *, owner: str) -> bool:
        """A claimed digest is owed later (the person is still quiet: their hours
        changed): moved to ``due_at``, unclaimed. False if ``owner`` no longer holds it."""
        async with self._write() as db:
            count = await db.run("UPDATE digests SET due_at = ?, claimed_by = NULL,"
                                 " claimed_until = NULL WHERE user_id = ? AND claimed_by = ?",
                                 (due_at, user_id, owner))
            return count > 0

    async def done(self, user_id: int, *, owner: str) -> bool:
        """The claimed digest went (or nothing waited): it is owed no more. False if
        ``owner`` no longer held it (its lease ran out and another process took it)."""
        async with self._write() as db:
            count = await db.run("DELETE FROM digests WHERE user_id = ? AND claimed_by = ?",
                                 (user_id, owner))
            return count > 0
