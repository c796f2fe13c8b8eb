"""Ordered background delivery: one queue per key, a few workers serving the queues.

The service calls the notifier under a table's lock, right after a commit; sending to
Discord there would make every move wait for HTTP (and for rate limits). So the
notifier only enqueues a job here and returns. Jobs with the same key (a table's
channel, or one seat's DMs) run in the order they were put, one at a time; different
keys run concurrently. A job waits out Discord's passing failures
(`bot.discord.delivery.retry`: its queue waits with it, so what follows keeps its
order); a job that fails otherwise is logged and the queue goes on: a Discord error
never reaches the table; a job a newer one replaced while it waited (`Superseded`) ends quietly.

Few jobs run at once (`SLOTS`): a delivery is mostly event-loop work (composing a
message, discord.py's HTTP and parsing), and hundreds of them interleaved would put a
click's answer behind all of them at every ``await`` of its path (the loop serves its
ready callbacks first come, first served). The queues wait instead, where a DM still
unsent is replaced by a newer one (`DmPresenter`) and a table picture is coalesced. A
job that still runs after `SLOT_HOLD` (waiting on Discord: a rate limit, a slow
upload) gives its slot back, so a slow send never holds up the other keys. The
workers stay for the next jobs (`SLOTS` of them at most wait for work): a task per job,
a timer per slot and per wait for the answers were some five a click on the event loop
(bench/discord.py's play window), now a dict entry each (`Lapses`).

Jobs may be held (`hold`) until `release`: the bot holds them from its start until
its gateway has told it its servers (their languages and channels), the moves going on
meanwhile; the DMs and pictures queued then fold as ever and go out at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Hashable

from bot.discord.delivery.lapses import Lapses
from bot.discord.delivery.retry import Superseded

log = logging.getLogger(__name__)

Job = Callable[[], Awaitable[None]]
YIELD_LIMIT = 0.01
"""Seconds a delivery waits at most for the interactions being answered (`yield_to`):
answers first, but a stream of clicks never starves the DMs."""
SLOTS = 8
"""Jobs running at once, all keys together: enough to keep the picture processes
busy (a DM's job mostly waits for its picture), few enough that the event loop's
queue stays short for the answers."""
SLOT_HOLD = 0.25
"""Seconds after which a job still running gives its slot back (it is waiting on
Discord, not working): the slots bound the loop's work, never the deliveries."""


class Outbox:
    def __init__(self, slots: int = SLOTS) -> None:
        self._queues: dict[Hashable, deque[Job]] = {}
        """The keys with jobs queued or running."""
        self._ready: deque[Hashable] = deque()
        """The keys with jobs queued and none running, in their turn."""
        self._slots = slots
        self._taken = 0
        self._holds = Lapses()
        self._yields = Lapses()
        self._workers: set[asyncio.Task[None]] = set()
        self._parked: deque[asyncio.Future[None]] = deque()
        """Workers waiting for work."""
        self._coming = 0
        """Workers started or woken that have not taken a key yet (or parked again)."""
        self._idle = asyncio.Event()
        self._idle.set()
        self.closed = False
        self._held = False
        self.yield_to: asyncio.Event | None = None
        """Set when no interaction is being answered (the bot's `InFlight.answered`):
        each job waits for it (up to `YIELD_LIMIT`), so a click's answer never queues
        behind the DMs and pictures of the clicks before it."""

    def put(self, key: Hashable, job: Job) -> None:
        """Queue ``job`` after the other jobs of ``key``; a worker takes it in turn."""
        if self.closed:
            return
        queue = self._queues.get(key)
        if queue is not None:  # its key is ready or running: the job waits its turn
            queue.append(job)
            return
        self._queues[key] = deque((job,))
        self._ready.append(key)
        self._idle.clear()
        self._wake()

    def hold(self) -> None:
        """No job starts until `release` (they are queued as ever)."""
        self._held = True

    def release(self) -> None:
        """The held jobs go, and those put from now on."""
        self._held = False
        self._wake()

    def _wake(self) -> None:
        """A worker for each ready key a slot is free for (a waiting one first)."""
        while not self._held and not self.closed and len(self._ready) > self._coming \
                and self._taken + self._coming < self._slots:
            self._coming += 1
            while self._parked:
                parked = self._parked.popleft()
                if not parked.done():  # not one cancelled by the close
                    parked.set_result(None)
                    break
            else:
                task = asyncio.create_task(self._serve(), name="outbox")
                self._workers.add(task)
                task.add_done_callback(self._workers.discard)

    async def _yield(self) -> None:
        answered = self.yield_to
        if answered is None or answered.is_set():
            return
        with contextlib.suppress(TimeoutError), self._yields.cut(YIELD_LIMIT):
            await answered.wait()

    def busy(self) -> bool:
        return bool(self._queues)

    def busy_keys(self) -> list[Hashable]:
        """The keys with jobs queued or running."""
        return list(self._queues)

    def slots_taken(self) -> int:
        """Slots held now: jobs running that have not given theirs back."""
        return self._taken

    def _hold_over(self) -> None:
        """A job ran `SLOT_HOLD`: its slot goes to the next key."""
        self._taken -= 1
        self._wake()

    async def _serve(self) -> None:
        coming = True  # counted in _coming (by _wake)
        try:
            while True:
                # the answers first, then a slot: a job waiting for them holds none
                await self._yield()
                coming = False
                self._coming -= 1
                if self._held or self.closed or not self._ready \
                        or self._taken >= self._slots:
                    if len(self._parked) >= self._slots:
                        return  # enough wait for work
                    parked = asyncio.get_running_loop().create_future()
                    self._parked.append(parked)
                    try:
                        await parked
                    finally:
                        if parked.done() and not parked.cancelled():
                            coming = True  # woken by _wake, counted there
                        elif parked in self._parked:
                            self._parked.remove(parked)
                    continue
                key = self._ready.popleft()
                queue = self._queues[key]
                self._taken += 1
                hold = self._holds.add(SLOT_HOLD, self._hold_over)
                try:
                    # taken only now: a job put while this one waited for its slot may
                    # have replaced it (a DM folds into the one queued)
                    job = queue.popleft()
                    await job()
                except asyncio.CancelledError:
                    raise
                except Superseded:  # a newer delivery replaces it: nothing to send
                    log.debug("a delivery for %s was superseded", key)
                except Exception:
                    log.exception("delivery for %s failed", key)
                finally:
                    if self._holds.drop(hold):
                        self._taken -= 1
                    if queue:
                        self._ready.append(key)  # after the keys waiting already
                    else:
                        del self._queues[key]
                        if not self._queues:
                            self._idle.set()
                coming = True
                self._coming += 1
                self._wake()
        finally:
            if coming:
                self._coming -= 1

    async def drain(self, timeout: float | None = None) -> bool:
        """Wait until every queue is empty (shutdown, tests); False on timeout."""
        try:
            await asyncio.wait_for(self._idle.wait(), timeout)
        except TimeoutError:
            return False
        return True

    async def close(self, timeout: float = 10.0) -> None:
        """Deliver what is queued (up to ``timeout``), then cancel what is left."""
        self.release()  # held for a gateway that never came: Discord may take them still
        await self.drain(timeout)
        self.closed = True
        for task in list(self._workers):
            task.cancel()
        for task in list(self._workers):
            with contextlib.suppress(asyncio.CancelledError):
                await task
