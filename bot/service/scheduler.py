"""One scheduler for every table: it sleeps until the earliest pending moment (a
deadline, a half-time reminder, a computer's move) and hands it to the service.

Entries are never removed when a decision is made; the service checks each one
against the table's live state when it comes due and drops it if it is stale, which
keeps pushing cheap (a heap) and makes a duplicate harmless.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Literal

from bot.service.clock import Clock

log = logging.getLogger(__name__)


@dataclass(frozen=True, order=True)
class Wake:
    """A moment something may happen at a table: ``due`` plays the decision,
    ``remind`` sends the half-time reminder."""

    when: float
    table_id: int
    hand_id: int
    seat: int
    step: int
    what: Literal["due", "remind"] = "due"


class Scheduler:
    def __init__(self, clock: Clock, fire: Callable[[Wake], Awaitable[None]], *,
                 concurrency: int = 32) -> None:
        self._clock = clock
        self._fire = fire
        self._heap: list[Wake] = []
        self._wake = asyncio.Event()
        self._limit = asyncio.Semaphore(concurrency)
        self._tasks: set[asyncio.Task[None]] = set()
        self._running = False

    def __len__(self) -> int:
        return len(self._heap)

    def push(self, wake: Wake) -> None:
        earliest = self._heap[0].when if self._heap else None
        heapq.heappush(self._heap, wake)
        if earliest is None or wake.when < earliest:
            self._wake.set()

    def earliest(self) -> float | None:
        return self._heap[0].when if self._heap else None

    async def run_due(self) -> int:
        """Fire everything due now, one after another, including what those firings
        make due (a chain of computer moves with no pause); return how many fired."""
        fired = 0
        while self._heap and self._heap[0].when <= self._clock.now():
            await self._safe_fire(heapq.heappop(self._heap))
            fired += 1
        return fired

    async def run(self) -> None:
        """Forever: sleep until the earliest entry, then fire it (concurrently across
        tables; the service's per-table lock keeps each table in order)."""
        self._running = True
        try:
            while self._running:
                self._wake.clear()
                if not self._heap:
                    await self._wake.wait()
                    continue
                if self._heap[0].when > self._clock.now():
                    await self._clock.sleep_until(self._heap[0].when, self._wake)
                    continue
                wake = heapq.heappop(self._heap)
                await self._limit.acquire()
                task = asyncio.create_task(self._fire_released(wake))
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)
        finally:
            self._running = False

    async def drain(self) -> None:
        """Wait for the firings already started (tests, shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    def stop(self) -> None:
        self._running = False
        self._wake.set()

    async def _fire_released(self, wake: Wake) -> None:
        try:
            await self._safe_fire(wake)
        finally:
            self._limit.release()

    async def _safe_fire(self, wake: Wake) -> None:
        try:
            await self._fire(wake)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("scheduled %s for table %s seat %s failed", wake.what,
                          wake.table_id, wake.seat)


@contextlib.asynccontextmanager
async def running(scheduler: Scheduler) -> AsyncIterator[asyncio.Task[None]]:
    """Run the scheduler in the background for the length of a block."""
    task = asyncio.create_task(scheduler.run())
    try:
        yield task
    finally:
        scheduler.stop()
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        await scheduler.drain()
