"""Ordered background delivery: one queue per key, one worker per busy queue.

The service calls the notifier under a table's lock, right after a commit; sending to
Discord there would make every move wait for HTTP (and for rate limits). So the
notifier only enqueues a job here and returns. Jobs with the same key (a table's
channel, or one seat's DMs) run in the order they were put; different keys run
concurrently. A job waits out Discord's passing failures (`bot.discord.delivery.retry`:
its queue waits with it, so what follows keeps its order); a job that fails otherwise is
logged and the queue goes on: a Discord error never reaches the table; a job a newer
one replaced while it waited (`Superseded`) ends quietly.

Few jobs run at once (`SLOTS`): a delivery is mostly event-loop work (composing a
message, discord.py's HTTP and parsing), and hundreds of them interleaved would put a
click's answer behind all of them at every ``await`` of its path (the loop serves its
ready callbacks first come, first served). The queues wait instead, where a DM still
unsent is replaced by a newer one (`DmPresenter`) and a table picture is coalesced. A
job that still runs after `SLOT_HOLD` (waiting on Discord: a rate limit, a slow
upload) gives its slot back, so a slow send never holds up the other keys.

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


class _Slot:
    """One of the `Outbox`'s slots, given back once (``give_back``): when its job ends,
    or after `SLOT_HOLD` if the job is still waiting on Discord then."""

    def __init__(self, give_back: Callable[[], None]) -> None:
        self._give_back: Callable[[], None] | None = give_back
        self._timer = asyncio.get_running_loop().call_later(SLOT_HOLD, self.release)

    def release(self) -> None:
        if self._give_back is not None:
            give_back, self._give_back = self._give_back, None
            self._timer.cancel()
            give_back()


class Outbox:
    def __init__(self, slots: int = SLOTS) -> None:
        self._queues: dict[Hashable, deque[Job]] = {}
        self._workers: dict[Hashable, asyncio.Task[None]] = {}
        self._slots = asyncio.Semaphore(slots)
        self._taken = 0
        self._idle = asyncio.Event()
        self._idle.set()
        self.closed = False
        self._held: asyncio.Event | None = None
        self.yield_to: asyncio.Event | None = None
        """Set when no interaction is being answered (the bot's `InFlight.answered`):
        each job waits for it (up to `YIELD_LIMIT`), so a click's answer never queues
        behind the DMs and pictures of the clicks before it."""

    def put(self, key: Hashable, job: Job) -> None:
        """Queue ``job`` after the other jobs of ``key``; start a worker if none runs."""
        if self.closed:
            return
        self._queues.setdefault(key, deque()).append(job)
        if key not in self._workers:
            self._idle.clear()
            self._workers[key] = asyncio.create_task(self._work(key), name=f"outbox-{key}")

    def hold(self) -> None:
        """No job runs until `release` (they are queued as ever)."""
        if self._held is None or self._held.is_set():
            self._held = asyncio.Event()

    def release(self) -> None:
        """The held jobs go, and those put from now on."""
        if self._held is not None:
            self._held.set()

    async def _yield(self) -> None:
        answered = self.yield_to
        if answered is None or answered.is_set():
            return
        with contextlib.suppress(TimeoutError):
            # not wait_for, which makes a task of the wait: some seven a click at a burst
            async with asyncio.timeout(YIELD_LIMIT):
                await answered.wait()

    def busy(self) -> bool:
        return bool(self._workers)

    def busy_keys(self) -> list[Hashable]:
        """The keys with jobs queued or running."""
        return list(self._queues)

    def slots_taken(self) -> int:
        """Slots held now: jobs running that have not given theirs back."""
        return self._taken

    def _give_back(self) -> None:
        self._taken -= 1
        self._slots.release()

    async def _work(self, key: Hashable) -> None:
        queue = self._queues[key]
        try:
            if self._held is not None:
                await self._held.wait()
            while queue:
                # the answers first, then a slot: a job waiting for them holds none
                await self._yield()
                await self._slots.acquire()
                self._taken += 1
                slot = _Slot(self._give_back)
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
                    slot.release()
        finally:
            self._workers.pop(key, None)
            if not queue:
                self._queues.pop(key, None)
            if not self._workers:
                self._idle.set()

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
        for task in list(self._workers.values()):
            task.cancel()
        for task in list(self._workers.values()):
            with contextlib.suppress(asyncio.CancelledError):
                await task
