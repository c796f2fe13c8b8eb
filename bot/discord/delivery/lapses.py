"""Deadlines of one length served by one timer.

Every delivery had timers of its own (its slot's hold, its wait for the answers, its
call's timeout), each armed and nearly always cancelled unfired: some four a click on
the event loop (call_at, a heap push, the cancel; measured with the play window of
bench/discord.py). Here a deadline is a dict entry: the one timer is armed at the
earliest deadline when none is armed, and when it fires it serves what has lapsed and
is armed again for what is left; a deadline met in time is only dropped from the dict.
"""

from __future__ import annotations

import asyncio
import itertools
import math
from collections.abc import Callable
from types import TracebackType


class Lapses:
    """Deadlines, each calling its ``then`` once it lapses unless dropped first."""

    def __init__(self) -> None:
        self._due: dict[int, tuple[float, Callable[[], None]]] = {}
        self._tokens = itertools.count()
        self._timer: asyncio.TimerHandle | None = None
        self._at = math.inf

    def __len__(self) -> int:
        return len(self._due)

    def add(self, after: float, then: Callable[[], None]) -> int:
        """``then()`` in ``after`` seconds, unless `drop` is given the token first."""
        loop = asyncio.get_running_loop()
        when = loop.time() + after
        token = next(self._tokens)
        self._due[token] = (when, then)
        if when < self._at:
            if self._timer is not None:
                self._timer.cancel()
            self._at = when
            self._timer = loop.call_at(when, self._fire)
        return token

    def drop(self, token: int) -> bool:
        """The deadline is met: True if it had not lapsed yet."""
        return self._due.pop(token, None) is not None

    def _fire(self) -> None:
        self._timer = None
        self._at = math.inf
        loop = asyncio.get_running_loop()
        now = loop.time()
        lapsed = [token for token, (when, _) in self._due.items() if when <= now]
        for token in lapsed:
            entry = self._due.pop(token, None)
            if entry is not None:
                entry[1]()  # may add deadlines (arming the timer again)
        if self._due and self._timer is None:
            self._at = min(when for when, _ in self._due.values())
            self._timer = loop.call_at(self._at, self._fire)

    def cut(self, after: float, *, unless: Callable[[], bool] | None = None) -> Cut:
        """`asyncio.timeout` on this timer (a `Cut`)."""
        return Cut(self, after, unless)


class Cut:
    """Cancels the task it is entered in once ``after`` seconds lapsed, and then raises
    TimeoutError on leaving (as `asyncio.timeout`, whose timer per use it spares). With
    ``unless``: at the deadline, while ``unless()`` says True, it waits ``after`` more
    instead (the gate never cuts a call discord.py holds for a global rate limit)."""

    __slots__ = (
        "_after",
        "_cancelling",
        "_lapses",
        "_task",
        "_token",
        "_unless",
        "expired",
    )

    def __init__(self, lapses: Lapses, after: float,
                 unless: Callable[[], bool] | None) -> None:
        self._lapses = lapses
        self._after = after
        self._unless = unless
        self._task: asyncio.Task[object] | None = None
        self._cancelling = 0
        self._token = -1
        self.expired = False
        """Whether it cut (the task got its cancellation)."""

    def __enter__(self) -> Cut:
        task = asyncio.current_task()
        if task is None:
            raise RuntimeError("Cut should be used inside a task")
        self._task = task
        self._cancelling = task.cancelling()
        self._token = self._lapses.add(self._after, self._lapse)
        return self

    def _lapse(self) -> None:
        if self._unless is not None and self._unless():
            self._token = self._lapses.add(self._after, self._lapse)
            return
        self.expired = True
        assert self._task is not None
        self._task.cancel()

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self._lapses.drop(self._token)
        if not self.expired:
            return
        assert self._task is not None
        if self._task.uncancel() <= self._cancelling \
                and exc_type is asyncio.CancelledError:
            raise TimeoutError from exc
