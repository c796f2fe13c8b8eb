"""Ordered background delivery: one queue per key, one worker per busy queue.

The service calls the notifier under a table's lock, right after a commit; sending to
Discord there would make every move wait for HTTP (and for rate limits). So the
notifier only enqueues a job here and returns. Jobs with the same key (a table's
channel, or one seat's DMs) run in the order they were put; different keys run
concurrently. A job that fails is logged and the queue goes on: a Discord error never
reaches the table.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Hashable

log = logging.getLogger(__name__)

Job = Callable[[], Awaitable[None]]
YIELD_LIMIT = 0.01
"""Seconds a delivery waits at most for the interactions being answered (`yield_to`):
answers first, but a stream of clicks never starves the DMs."""


class Outbox:
    def __init__(self) -> None:
        self._queues: dict[Hashable, deque[Job]] = {}
        self._workers: dict[Hashable, asyncio.Task[None]] = {}
        self._idle = asyncio.Event()
        self._idle.set()
        self.closed = False
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

    async def _yield(self) -> None:
        answered = self.yield_to
        if answered is None or answered.is_set():
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(answered.wait(), YIELD_LIMIT)

    def busy(self) -> bool:
        return bool(self._workers)

    async def _work(self, key: Hashable) -> None:
        queue = self._queues[key]
        try:
            while queue:
                await self._yield()
                job = queue.popleft()
                try:
                    await job()
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("delivery for %s failed", key)
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
        await self.drain(timeout)
        self.closed = True
        for task in list(self._workers.values()):
            task.cancel()
        for task in list(self._workers.values()):
            with contextlib.suppress(asyncio.CancelledError):
                await task
