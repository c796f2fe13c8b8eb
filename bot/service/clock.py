"""Time, injected: the real clock for the bot, a fake one for tests (no real sleeping).

Deadlines are stored as unix seconds, so the real clock is wall time (`time.time`).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any, Protocol


class Clock(Protocol):
    def now(self) -> float:
        """Unix seconds."""
        ...

    async def sleep_until(self, when: float, wake: asyncio.Event) -> None:
        """Return at ``when`` or as soon as ``wake`` is set, whichever comes first."""
        ...


class SystemClock:
    """Wall time; ``speed`` > 1 makes time run faster (the offline demo)."""

    def __init__(self, speed: float = 1.0) -> None:
        self.speed = speed
        self._start = time.time()
        self._mono = time.monotonic()

    def now(self) -> float:
        if self.speed == 1.0:
            return time.time()
        return self._start + (time.monotonic() - self._mono) * self.speed

    async def sleep_until(self, when: float, wake: asyncio.Event) -> None:
        delay = (when - self.now()) / self.speed
        if delay <= 0:
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(wake.wait(), delay)


class FakeClock:
    """A clock that moves only when a test calls `advance`."""

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self._now = start
        self._waiters: list[tuple[float, asyncio.Future[None]]] = []

    def now(self) -> float:
        return self._now

    def set(self, when: float) -> None:
        self._now = when
        self._release()

    def advance(self, seconds: float) -> None:
        """Move time on, waking every sleeper whose moment has come."""
        self.set(self._now + seconds)

    def _release(self) -> None:
        keep = []
        for when, fut in self._waiters:
            if when <= self._now:
                if not fut.done():
                    fut.set_result(None)
            elif not fut.done():
                keep.append((when, fut))
        self._waiters = keep

    async def sleep_until(self, when: float, wake: asyncio.Event) -> None:
        if when <= self._now or wake.is_set():
            return
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiters.append((when, fut))
        waiter = asyncio.ensure_future(wake.wait())
        racers: set[asyncio.Future[Any]] = {fut, waiter}  # their results are not read
        try:
            await asyncio.wait(racers, return_when=asyncio.FIRST_COMPLETED)
        finally:
            waiter.cancel()
            if not fut.done():
                fut.cancel()
