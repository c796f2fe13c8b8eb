"""The outbox: what the channel must be told (announcements), written in the
transaction that decided it, delivered (and, by several processes, claimed) later."""

from __future__ import annotations

from collections.abc import Sequence

from bot.store.database import Session
from bot.store.errors import NotFound
from bot.store.repository import Repository, as_json, skip_locked
from bot.store.rows import (
    AnnouncementRow,
    AnnouncementStatus,
    HandRow,
    NewAnnouncement,
    announcement_key,
)


async def announce_in(db: Session, table_id: int,
                      items: Sequence[NewAnnouncement], at: float,
                      hand: HandRow | None = None) -> None:
    """Record announcements inside the caller's transaction; those without a hand
    of their own are about ``hand`` (if given)."""
    for item in items:
        hand_id, number = item.hand_id, item.hand_number
        if hand_id is None and hand is not None:
            hand_id, number = hand.id, hand.number
        await db.run("INSERT INTO announcements (table_id, hand_id, kind, key, facts,"
                       " created_at) VALUES (?, ?, ?, ?, ?, ?)",
                   (table_id, hand_id, item.kind,
                    announcement_key(item.kind, table_id, number),
                    as_json(dict(item.facts or {})), at))


KEPT_DELIVERED = 3600.0
"""Seconds an announcement is kept once delivered (`prune_delivered_in`)."""
PRUNED = 64
"""Delivered announcements one hand's end forgets at most: more than a hand writes."""


async def prune_delivered_in(db: Session, at: float) -> None:
    """Forget, in the caller's transaction, the oldest announcements delivered more than
    `KEPT_DELIVERED` seconds before ``at`` (`PRUNED` at most): a delivered one is never
    read again (only undelivered ones are handed over, and looked for when unsure), so
    each hand's end takes away at least what a hand announces and a finished hand
    keeps none (issue 32, "a hand costs its log"). Their keys are never written again
    (each names its table, hand and kind, decided once)."""
    await db.run("DELETE FROM announcements WHERE id IN (SELECT id FROM announcements"
                 " WHERE status = 'delivered' AND delivered_at < ? ORDER BY id LIMIT ?)",
                 (at - KEPT_DELIVERED, PRUNED))


class Outbox(Repository):
    """The announcements."""

    async def undelivered(self, table_id: int | None = None) -> list[AnnouncementRow]:
        """Announcements not yet delivered (of one table, or all), oldest first."""
        where, params = (" AND table_id = ?", (table_id,)) if table_id is not None \
            else ("", ())
        rows = await self._all(
            f"SELECT * FROM announcements WHERE status <> 'delivered'{where} ORDER BY id",
            params)
        return [AnnouncementRow.of(r) for r in rows]

    async def of_table(self, table_id: int) -> list[AnnouncementRow]:
        """Every announcement of a table, oldest first."""
        rows = await self._all(
            "SELECT * FROM announcements WHERE table_id = ? ORDER BY id", (table_id,))
        return [AnnouncementRow.of(r) for r in rows]

    async def mark(self, announcement_id: int, status: AnnouncementStatus,
                   at: float) -> AnnouncementRow:
        """``sending`` right before it is handed to Discord, ``delivered`` once Discord
        accepted it (a delivered row stays delivered)."""
        async with self._write() as db:
            await db.run(
                "UPDATE announcements SET status = ?, delivered_at = ?"
                    " WHERE id = ? AND status <> 'delivered'",
                (status, at if status == "delivered" else None, announcement_id))
            row = await db.one("SELECT * FROM announcements WHERE id = ?",
                             (announcement_id,))
            if row is None:
                raise NotFound(f"no announcement {announcement_id}")
            return AnnouncementRow.of(row)

    async def claim(self, now: float, *, owner: str, until: float,
                    table_id: int | None = None,
                    created_before: float | None = None
                    ) -> list[AnnouncementRow]:
        """Claim for ``owner`` (until ``until``) the undelivered announcements (of one
        table, or all) nobody is delivering (or whose deliverer's lease ran out), oldest
        first: each is handed to one process's notifier. ``created_before``: of those
        nobody ever claimed, only the ones written before then (a sweep leaves a fresh
        row to the process that wrote it, which claims it right after its commit)."""
        where, params = (" AND table_id = ?", (table_id,)) if table_id is not None \
            else ("", ())
        if created_before is not None:
            where += " AND (claimed_by IS NOT NULL OR created_at < ?)"
            params = (*params, created_before)
        async with self._write() as db:
            rows = await db.all("SELECT * FROM announcements WHERE status <> 'delivered'"
                                " AND (claimed_until IS NULL OR claimed_until < ?)"
                                f"{where} ORDER BY id{skip_locked(db, 'announcements')}",
                                (now, *params))
            await db.run_many("UPDATE announcements SET claimed_by = ?, claimed_until = ?"
                              " WHERE id = ?", [(owner, until, r["id"]) for r in rows])
            return [AnnouncementRow.of(r) for r in rows]
