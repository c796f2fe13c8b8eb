"""`Claims`: shared mode's timers and outbox, claimed from the database.

With several processes on one database (PostgreSQL), no process may fire a deadline
from its own memory: two would. Instead each polls the ``deadlines`` rows whose moment
came (a person's half-time reminder, else the deadline), claims them for itself with a
lease (`Store.claim_deadlines`: ``FOR UPDATE SKIP LOCKED`` on PostgreSQL, the write
lock on SQLite), and fires each through `Timers.fire`, which reloads the table if
another process moved it. A firing that plays a move replaces the hand's deadline rows
(and so the claim) in the move's own transaction; a reminder frees it
(`Store.mark_reminded`). A process killed holding claims leaves them to the others
once the lease has passed: that is what a kill costs, a late timer.

The outbox the same way: a process claims its table's new announcements right after
its commit (`deliver`), and a sweep here claims those whose deliverer died (lease
passed) or that were never claimed (their writer died between its commit and its
claim).

The in-memory `Scheduler` still holds this process's own decisions: it never fires
them here, it only tells the poll loop when to look next (so a computer's move made
here is played on time, without waiting for the next poll).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from typing import TYPE_CHECKING

from bot.service.part import Part
from bot.service.scheduler import Wake
from bot.store import AnnouncementRow, DeadlineRow

if TYPE_CHECKING:
    from bot.service.service import TableService

log = logging.getLogger(__name__)

CLAIM_BATCH = 20
"""Deadlines claimed at once (fired concurrently, one table after another under its lock)."""
SWEEP_EVERY = 5.0
"""Seconds between two sweeps of the outbox for announcements nobody delivers."""


class Claims(Part):
    """Deadlines and announcements claimed from the database (shared mode)."""

    def __init__(self, service: TableService) -> None:
        super().__init__(service)
        self.owner = secrets.token_hex(8)
        """This process's name on its claims (random: a restarted process is another)."""
        self.lease = service.claim_lease
        self.announce_lease = service.announce_lease
        self.poll = service.claim_poll
        self._swept_at = float("-inf")
        self._running = False
        self._tasks: set[asyncio.Task[None]] = set()
        self._stopped = False

    def moment(self, row: DeadlineRow, now: float) -> Wake:
        """The moment of a claimed deadline: the reminder while a person's is owed."""
        if row.kind != "computer" and row.reminded_at is None and row.half_at <= now:
            return Wake(row.half_at, row.table_id, row.hand_id, row.seat, row.seq, "remind")
        return Wake(row.due_at, row.table_id, row.hand_id, row.seat, row.seq)

    async def run_due(self) -> int:
        """Claim and fire what is due now, and what those firings make due; how many."""
        fired = 0
        while True:
            now = self.clock.now()
            rows = await self.store.claim_deadlines(now, owner=self.owner,
                                                    until=now + self.lease, limit=CLAIM_BATCH)
            if not rows or self._stopped:  # stopped meanwhile: the lease hands them on
                return fired
            tasks = {asyncio.create_task(self._fire(self.moment(r, now))) for r in rows}
            self._tasks |= tasks
            await asyncio.wait(tasks)  # a cancelled loop leaves them to finish (`drain`)
            self._tasks -= tasks
            fired += len(rows)

    async def drain(self) -> None:
        """Wait for the firings already started (shutdown)."""
        while self._tasks:
            await asyncio.wait(set(self._tasks))
            self._tasks = {t for t in self._tasks if not t.done()}

    async def _fire(self, wake: Wake) -> None:
        try:
            await self.timers.fire(wake)
        except asyncio.CancelledError:
            raise
        except Exception:  # one table's failure must not stop the others' timers
            log.exception("claimed %s for table %s seat %s failed", wake.what,
                          wake.table_id, wake.seat)

    async def run(self) -> None:
        """Forever: claim and fire what is due, sweep the outbox now and then, and sleep
        until the next poll or this process's own next moment, whichever is first."""
        self._running = True
        try:
            while self._running:
                self.scheduler.woken.clear()
                await self.run_due()
                now = self.clock.now()
                self.scheduler.discard_due(now)
                if now - self._swept_at >= SWEEP_EVERY:
                    await self.sweep()
                own = self.scheduler.earliest()
                wake_at = now + self.poll if own is None else min(now + self.poll, own)
                await self.clock.sleep_until(wake_at, self.scheduler.woken)
        finally:
            self._running = False

    def stop(self) -> None:
        """End `run`; nothing more is claimed and fired (shutdown)."""
        self._running = False
        self._stopped = True
        self.scheduler.woken.set()

    async def announcements(self, table_id: int | None = None, *,
                            created_before: float | None = None) -> list[AnnouncementRow]:
        """Claim undelivered announcements to hand to this process's notifier."""
        now = self.clock.now()
        return await self.store.claim_announcements(
            now, owner=self.owner, until=now + self.announce_lease, table_id=table_id,
            created_before=created_before)

    async def sweep(self) -> None:
        """Deliver the announcements a dead process left (its lease over, or never
        claimed and older than a sweep)."""
        self._swept_at = now = self.clock.now()
        try:
            await self.announcer.redeliver(created_before=now - SWEEP_EVERY)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the outbox sweep failed")
