"""What `mahjong-bot status` reads (bot/ops/status.py), and what `mahjong-bot restore`
writes into a restored copy (`Maintenance.after_restore`).

The status is the database's own account of
how the bot is doing — live tables, the decisions waiting for people, the deadlines
that passed without firing, the deliveries owed — counted in a few queries, each with
its oldest moment, and nothing else. Read in one read transaction, so every figure is
of the same moment, and never a write: a status check may run beside the bot."""

from __future__ import annotations

from dataclasses import dataclass

from bot.store.database import Session
from bot.store.deadlines import WAITING
from bot.store.presenter import OWED_DMS
from bot.store.repository import Repository
from bot.store.rows import Row


@dataclass(frozen=True)
class Count:
    """How many, and the oldest one's moment (Unix time; None when there are none)."""

    count: int
    oldest: float | None

    @classmethod
    def of(cls, row: Row | None) -> Count:
        if row is None or not row[0]:
            return cls(0, None)
        return cls(int(row[0]), float(row[1]) if row[1] is not None else None)


@dataclass(frozen=True)
class Health:
    """The database's figures at one moment (`Health.read`)."""

    lobby: int
    """Tables waiting in their lobby."""
    playing: int
    """Tables with a match in play."""
    decisions: Count
    """Turns and claims waiting for a person (oldest: since when)."""
    overdue: Count
    """Deadlines of live hands whose moment passed before the cut-off (oldest: the
    earliest such moment): no process fired them."""
    announcements: Count
    """Channel announcements not yet delivered (oldest: when decided)."""
    decision_dms: Count
    """Pending decisions whose DM the stored one does not show (oldest: when set)."""
    digests: Count
    """Quiet-hours digests due and not sent (oldest: when due)."""

    @property
    def owed(self) -> Count:
        """Every delivery owed, and the oldest of them."""
        parts = (self.announcements, self.decision_dms, self.digests)
        moments = [p.oldest for p in parts if p.oldest is not None]
        return Count(sum(p.count for p in parts), min(moments) if moments else None)


async def _read(db: Session, cut: float, now: float) -> Health:
    statuses = {str(r["status"]): int(r["n"]) for r in await db.all(
        "SELECT status, COUNT(*) AS n FROM game_tables"
        " WHERE status IN ('lobby', 'playing') GROUP BY status")}

    async def count(sql: str, params: tuple[float, ...] = ()) -> Count:
        return Count.of(await db.one(sql, params))

    return Health(
        lobby=statuses.get("lobby", 0), playing=statuses.get("playing", 0),
        decisions=await count(f"SELECT COUNT(*), MIN(d.set_at) {WAITING}"),
        overdue=await count(
            "SELECT COUNT(*), MIN(d.due_at) FROM deadlines d"
            " JOIN hands h ON h.id = d.hand_id WHERE h.status = 'live' AND d.due_at < ?",
            (cut,)),
        announcements=await count("SELECT COUNT(*), MIN(created_at) FROM announcements"
                                  " WHERE status <> 'delivered'"),
        decision_dms=await count(f"SELECT COUNT(*), MIN(d.set_at) {OWED_DMS}"),
        digests=await count("SELECT COUNT(*), MIN(due_at) FROM digests"
                            " WHERE sent_at IS NULL AND due_at <= ?", (now,)))


class Maintenance(Repository):
    """The admin commands' reads and writes (`mahjong-bot status`, ``migrate``,
    ``restore``)."""

    async def schema_version(self) -> int:
        """The highest migration applied (0: none, an empty database), read without
        migrating (`Store.open` with ``migrate=False``)."""
        exists = ("SELECT to_regclass('schema_version') IS NOT NULL"
                  if self._db.dialect == "postgres" else
                  "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table'"
                  " AND name = 'schema_version'")
        row = await self._one(exists)
        if row is None or not row[0]:
            return 0
        row = await self._one("SELECT COALESCE(MAX(version), 0) FROM schema_version")
        return int(row[0]) if row is not None else 0

    async def read(self, now: float, *, overdue_before: float) -> Health:
        """The figures at ``now``; a deadline counts as overdue when its moment came
        before ``overdue_before``."""
        async with self._db.read() as db:
            return await _read(db, overdue_before, now)

    async def live_tables(self) -> int:
        """Tables in lobby or play (the metrics' gauge, read every few seconds: a
        partial index counts them)."""
        row = await self._one("SELECT COUNT(*) FROM game_tables"
                              " WHERE status IN ('lobby', 'playing')")
        return int(row[0]) if row else 0

    async def after_restore(self, version: int, at: float) -> None:
        """A database just restored from a backup (schema ``version``), before any bot
        opens it: every decision waiting for a person is owed a fresh DM (the stored
        DM's step forgotten: `Presenter.owed_dms` then finds each, and the bot's start
        sends them), since the DMs players hold were drawn after the backup; the
        restore's moment kept (``restored_at``: what the bot sends gets new nonces, so
        Discord hands back none of the lost timeline's messages); and no claim of a
        process that ran on the original is left to run out."""
        async with self._write() as db:
            if version >= 11:  # seats.dm_order
                await db.run("UPDATE seats SET dm_order = NULL WHERE dm_order IS NOT NULL")
            if version >= 35:  # deadlines.dm_owed: every decision owed its DM again
                await db.run("UPDATE deadlines SET dm_owed = 1 WHERE dm_owed = 0")
            if version >= 6:  # bot_settings: the deliveries' nonces start afresh
                await db.run("INSERT INTO bot_settings (key, value, updated_at)"
                             " VALUES ('restored_at', ?, ?) ON CONFLICT (key) DO UPDATE"
                             " SET value = excluded.value, updated_at = excluded.updated_at",
                             (repr(at), at))
            if version >= 8:  # the claims of several processes
                for table in ("deadlines", "announcements"):
                    await db.run(f"UPDATE {table} SET claimed_by = NULL,"
                                 " claimed_until = NULL WHERE claimed_by IS NOT NULL")
