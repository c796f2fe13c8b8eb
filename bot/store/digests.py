"""Digests (0019, 0020): the one DM a person is owed when their quiet hours (or leave)
end and decisions wait for them. A row is written when a process sees the person quiet
with a decision waiting (`owe`, due when that quiet ends), claimed when it comes due
(several processes on one database: one takes it, with a lease, as deadlines and
announcements are claimed), and marked sent once its DM went or nothing waited any more
(`done`); a sent row stays, so that one night's digest is never owed twice, until the
next night's replaces it."""

from __future__ import annotations

from dataclasses import replace

from bot.store.deadlines import WAITING
from bot.store.repository import Repository, skip_locked
from bot.store.rows import DigestRow, PersonRow


class Digests(Repository):
    """The digests owed."""

    async def resting_and_waited_for(self, now: float) -> list[PersonRow]:
        """The people who set quiet hours (or are on leave at ``now``), for whom a
        decision waits and no digest is owed yet (none, or the last one sent): those a
        process looks at to see whether they are quiet now."""
        rows = await self._all(
            "SELECT p.* FROM people p WHERE (p.quiet_start IS NOT NULL"
            " OR p.vacation_until > ?)"
            " AND NOT EXISTS (SELECT 1 FROM digests g WHERE g.user_id = p.user_id"
            " AND g.sent_at IS NULL)"
            f" AND EXISTS (SELECT 1 {WAITING} AND s.user_id = p.user_id)"
            " ORDER BY p.user_id", (now,))
        return [PersonRow.of(r) for r in rows]

    async def owe(self, user_id: int, due_at: float, *, at: float) -> bool:
        """The digest of the quiet that ends at ``due_at`` is owed to ``user_id``: False,
        and nothing changes, if one is owed already (unsent) or this one was sent (a
        sent digest of an earlier quiet gives way to it)."""
        async with self._write() as db:
            count = await db.run(
                "INSERT INTO digests (user_id, due_at, created_at) VALUES (?, ?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET due_at = excluded.due_at,"
                " created_at = excluded.created_at, sent_at = NULL, claimed_by = NULL,"
                " claimed_until = NULL"
                " WHERE digests.sent_at IS NOT NULL AND digests.due_at < excluded.due_at",
                (user_id, due_at, at))
            return count > 0

    async def owed(self, user_id: int) -> DigestRow | None:
        row = await self._one("SELECT * FROM digests WHERE user_id = ?", (user_id,))
        return DigestRow.of(row) if row is not None else None

    async def earliest(self) -> float | None:
        """When the next digest comes due (None: none is owed)."""
        row = await self._one("SELECT min(due_at) AS at FROM digests WHERE sent_at IS NULL")
        return None if row is None or row["at"] is None else float(row["at"])

    async def claim(self, now: float, *, owner: str, until: float,
                    limit: int = 20) -> list[DigestRow]:
        """Claim for ``owner`` (until ``until``) the digests due by ``now`` that nobody
        holds (or whose holder's lease ran out: a killed process), soonest first; on
        PostgreSQL ``FOR UPDATE SKIP LOCKED``, so two processes never take the same."""
        async with self._write() as db:
            rows = await db.all("SELECT * FROM digests WHERE due_at <= ? AND sent_at IS NULL"
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

    async def done(self, user_id: int, *, owner: str, at: float) -> bool:
        """The claimed digest goes now (or nothing waited): it is owed no more, and kept
        as sent. False if ``owner`` no longer held it (its lease ran out and another
        process took it)."""
        async with self._write() as db:
            count = await db.run("UPDATE digests SET sent_at = ?, claimed_by = NULL,"
                                 " claimed_until = NULL WHERE user_id = ? AND claimed_by = ?"
                                 " AND sent_at IS NULL", (at, user_id, owner))
            return count > 0
