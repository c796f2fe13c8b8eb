"""`Claims`: shared mode's timers and outbox, claimed from the database.

With several processes on one database (PostgreSQL), no process may fire a deadline
from its own memory: two would. Instead each polls the ``deadlines`` rows whose moment
came (a person's half-time reminder, else the deadline), claims them for itself with a
lease (`Deadlines.claim`: ``FOR UPDATE SKIP LOCKED`` on PostgreSQL, the write
lock on SQLite), and fires each through `Alarms.fire`, which reloads the table if
another process moved it. A firing that plays a move replaces the hand's deadline rows
(and so the claim) in the move's own transaction; a reminder frees it
(`Deadlines.mark_reminded`). A process killed holding claims leaves them to the others
once the lease has passed: that is what a kill costs, a late timer.

The outbox the same way: a process claims its table's new announcements right after
its commit (`deliver`), and a sweep here claims those whose deliverer died (lease
passed) or that were never claimed (their writer died between its commit and its
claim).

Each process keeps a heartbeat row (`Processes.beat`, every third of a lease, from the
poll loop): at start-up, a process that sees no other alive knows that every process
was down and gives the restart grace (`SharedProcess.starting`, at `Recovery.recover`);
a process that stops cleanly removes its row. A row not refreshed for two leases is a
dead process: one survivor removes it and DMs the decisions the dead process committed
but may not have told (`take_over`, `Recovery.resend`).

The in-memory `Scheduler` still holds this process's own decisions: it never fires
them here, it only tells the poll loop when to look next (so a computer's move made
here is played on time, without waiting for the next poll).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from bot.service.clock import Clock
from bot.service.scheduler import Scheduler, Wake
from bot.store import DeadlineRow, Store, StoreError

log = logging.getLogger(__name__)

CLAIM_BATCH = 20
"""Deadlines claimed at once (fired concurrently, one table after another under its lock)."""
SWEEP_EVERY = 5.0
"""Seconds between two sweeps of the outbox for announcements nobody delivers."""
BEATS_PER_LEASE = 3
"""Heartbeats a claim lease: a process refreshes its row every ``lease / 3`` seconds."""
ALIVE_LEASES = 2
"""A process not seen for this many leases (30 s by default: six missed beats) counts
as down: a process starting then, with no other alive, gives the restart grace."""
PRUNE_LEASES = 40
"""Heartbeat rows older than this many leases (10 min) are removed: killed processes'."""


class Heartbeats:
    """This process's heartbeat row, and what the others' tell."""

    def __init__(self, store: Store, clock: Clock, owner: str, lease: float) -> None:
        self._store = store
        self._clock = clock
        self.owner = owner
        self.lease = lease
        self.beat_at = float("-inf")
        """When this process last wrote its row (-inf: it has none)."""

    async def beat(self) -> None:
        """This process is alive: its heartbeat row now (and killed processes' old rows
        pruned)."""
        now = self._clock.now()
        await self._store.processes.beat(self.owner, now,
                                         prune_before=now - PRUNE_LEASES * self.lease)
        self.beat_at = now

    async def bury(self) -> list[tuple[str, float]]:
        """The processes not seen for `ALIVE_LEASES` leases are dead: their heartbeat
        rows are removed, each by one process (the one this returns them to)."""
        since = self._clock.now() - ALIVE_LEASES * self.lease
        return await self._store.processes.take_dead(since)

    async def alone(self) -> bool:
        """No other process was seen alive lately (within `ALIVE_LEASES` leases): every
        process was down, so nobody served the deadlines that came due meanwhile."""
        since = self._clock.now() - ALIVE_LEASES * self.lease
        return not await self._store.processes.seen(since, besides=self.owner)

    async def forget(self) -> None:
        """A clean stop: this process is no longer alive to the others."""
        if self.beat_at == float("-inf"):
            return
        try:
            await self._store.processes.forget(self.owner)
        except StoreError as exc:  # it grows old instead: the others wait it out
            log.warning("heartbeat of process %s not removed: %s", self.owner, exc)
        self.beat_at = float("-inf")


class Claims:
    """Deadlines claimed from the database and fired; heartbeats; the outbox sweep."""

    def __init__(self, store: Store, clock: Clock, scheduler: Scheduler, heart: Heartbeats,
                 fire: Callable[[Wake], Awaitable[None]], *,
                 sweep: Callable[..., Awaitable[None]],
                 take_over: Callable[..., Awaitable[int]], poll: float) -> None:
        """``fire``: `Alarms.fire`; ``sweep``: `Recovery.redeliver` (with
        ``created_before``); ``take_over``: `Recovery.resend` (with ``set_before``)."""
        self._store = store
        self._clock = clock
        self._scheduler = scheduler
        self.heart = heart
        self._fire_wake = fire
        self._sweep = sweep
        self._take_over = take_over
        self.owner = heart.owner
        self.lease = heart.lease
        self.poll = poll
        self._swept_at = float("-inf")
        self._running = False
        self._tasks: set[asyncio.Task[None]] = set()
        self._stopped = False

    def moment(self, row: DeadlineRow, now: float) -> Wake:
        """The moment of a claimed deadline: the reminder while a person's is owed, then
        the quarter-left warning while it is owed (`deadlines._MOMENT`'s order)."""
        if row.kind != "computer" and row.reminded_at is None and row.half_at <= now:
            return Wake(row.half_at, row.table_id, row.hand_id, row.seat, row.seq, "remind")
        if row.kind != "computer" and row.warn_at is not None and row.warned_at is None \
                and row.warn_at <= now:
            return Wake(row.warn_at, row.table_id, row.hand_id, row.seat, row.seq, "warn")
        return Wake(row.due_at, row.table_id, row.hand_id, row.seat, row.seq)

    async def run_due(self) -> int:
        """Claim and fire what is due now, and what those firings make due; how many."""
        fired = 0
        if self._clock.now() - self.heart.beat_at >= self.lease / BEATS_PER_LEASE:
            await self.heart.beat()
            await self.take_over()
        while True:
            now = self._clock.now()
            rows = await self._store.deadlines.claim(now, owner=self.owner,
                                                     until=now + self.lease,
                                                     limit=CLAIM_BATCH)
            if not rows or self._stopped:  # stopped meanwhile: the lease hands them on
                return fired
            tasks = {asyncio.create_task(self._fire(self.moment(r, now))) for r in rows}
            self._tasks |= tasks
            await asyncio.wait(tasks)  # a cancelled loop leaves them to finish (`drain`)
            self._tasks -= tasks
            fired += len(rows)

    async def drain(self) -> None:
        """Wait for the firings already started (shutdown); once stopped, this process
        is no longer alive to the others (its heartbeat goes)."""
        await self._scheduler.drain()
        while self._tasks:
            await asyncio.wait(set(self._tasks))
            self._tasks = {t for t in self._tasks if not t.done()}
        if self._stopped:
            await self.heart.forget()

    async def take_over(self) -> int:
        """A process died (its heartbeat stopped): the DMs of decisions committed
        while it lived and never delivered (it died between a move's commit and the
        move's DMs) are sent from here, once: one survivor buries each dead process.
        How many DMs."""
        dead = await self.heart.bury()
        if not dead:
            return 0
        log.info("process(es) %s stopped beating: sending what they left undelivered",
                 ", ".join(owner for owner, _ in dead))
        # it may have written until its next beat was due: a lease after its last is safe
        try:
            return await self._take_over(set_before=max(at for _, at in dead) + self.lease)
        except StoreError:
            log.exception("the DMs left by process(es) %s could not be looked for",
                          ", ".join(owner for owner, _ in dead))
            return 0

    async def _fire(self, wake: Wake) -> None:
        try:
            await self._fire_wake(wake)
        except asyncio.CancelledError:
            raise
        except Exception:  # one table's failure must not stop the others' timers
            log.exception("claimed %s for table %s seat %s failed", wake.what,
                          wake.table_id, wake.seat)

    async def run(self) -> None:
        """Forever: claim and fire what is due, sweep the outbox now and then, and sleep
        until the next poll or this process's own next moment, whichever is first."""
        self._running = True
        scheduler = self._scheduler
        try:
            while self._running:
                scheduler.woken.clear()
                await self.run_due()
                now = self._clock.now()
                scheduler.discard_due(now)
                if now - self._swept_at >= SWEEP_EVERY:
                    await self.sweep()
                own = scheduler.earliest()
                wake_at = now + self.poll if own is None else min(now + self.poll, own)
                await self._clock.sleep_until(wake_at, scheduler.woken)
        finally:
            self._running = False

    def stop(self) -> None:
        """End `run`; nothing more is claimed and fired (shutdown)."""
        self._running = False
        self._stopped = True
        self._scheduler.stop()

    async def sweep(self) -> None:
        """Deliver the announcements a dead process left (its lease over, or never
        claimed and older than a sweep)."""
        self._swept_at = now = self._clock.now()
        try:
            await self._sweep(created_before=now - SWEEP_EVERY)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the outbox sweep failed")
