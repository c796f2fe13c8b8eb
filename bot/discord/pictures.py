"""Where the public pictures are drawn: a worker process, off the bot's event loop.

A table picture takes ~25 ms of pure Python/Pillow work. Drawn in a thread it still
holds the GIL, and with twenty tables playing the event loop stalls behind it (the
slowest clicks waited ~300 ms in `bench/discord.py`); in a separate process it runs on
the machine's other core. The views are small frozen dataclasses, cheap to pickle.
Hand pictures stay in a thread (quick, and queued behind table pictures in one process
they were slower). With ``processes=0`` (or a broken pool) all are drawn in threads.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import multiprocessing
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

log = logging.getLogger(__name__)


class Pictures:
    def __init__(self, processes: int = 1) -> None:
        self.processes = processes
        self._pool: ProcessPoolExecutor | None = None

    def _executor(self) -> ProcessPoolExecutor | None:
        if self.processes <= 0:
            return None
        if self._pool is None:
            # spawn, not fork: the bot has threads (SQLite, rendering) that fork would copy
            self._pool = ProcessPoolExecutor(self.processes,
                                             mp_context=multiprocessing.get_context("spawn"))
        return self._pool

    async def draw(self, draw: Callable[..., bytes], *args: Any, **kwargs: Any) -> bytes:
        """``draw(*args, **kwargs)`` in the worker process (or a thread)."""
        call = functools.partial(draw, *args, **kwargs)
        pool = self._executor()
        if pool is not None:
            try:
                return await asyncio.get_running_loop().run_in_executor(pool, call)
            except BrokenProcessPool:
                log.warning("the picture process died; drawing in threads from now on")
                self.processes, self._pool = 0, None
        return await asyncio.to_thread(call)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
