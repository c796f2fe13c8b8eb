"""Where pictures are drawn: worker processes, off the bot's event loop.

A table picture takes ~13 ms of Python/Pillow work drawn whole, 4–6 from the pieces
the public worker keeps (`render.pieces`: its rivers and panels that did not change),
a seat's view and hand picture ~3 (they were 25 and 10 before the shared palette and
the glyph cache of `render.draw`).
Drawn in a thread either still holds the GIL: the event loop stalls behind it,
and every hand-off to the SQLite thread waits for the GIL too (a click's dozen store
round trips each lost up to a switch interval, 5 ms, to a drawing thread: ~400 ms p99
in `bench/discord.py`). In separate processes they run beside the loop, on the
machine's other core, served from the event loop with no thread in between
(`bot.discord.core.workers`). Two pools, so that a seat's DM never queues behind table
pictures (`draw` for the public pictures, `draw_hand` for the DMs; the hands' has two
workers per ``processes``, `WORKERS`). The views are small frozen dataclasses; a
hand's state travels as its snapshot text (`job_bytes`). With ``processes=0`` (or a
broken pool) everything is drawn in threads.

The workers run at a lower CPU priority (`NICENESS`): on a busy machine a picture can
wait, a click's answer cannot, and the drawing (most of a click's CPU) would otherwise
take the core the event loop needs.

The bot starts its workers as it starts (`Pictures.start`), and each draws once before
its first job (`_prepare_worker`): otherwise the first player to ask would wait for a
worker's start-up — importing Pillow, the engine and the fonts, about a second, and
several on a busy machine at the workers' lower priority. Until a pool's first worker
is ready, its pictures are drawn in threads here: a restart owes its DMs and table
pictures at once, and waiting for the workers held them back 10–13 s on a loaded
machine (issue 28) while the moves went on.
"""

from __future__ import annotations

import asyncio
import functools
import io
import logging
import os
import pickle
from collections.abc import Callable
from typing import Any, TypeVar

from bot.discord.core.workers import BrokenWorkers, WorkerPool
from engine import rules as rulesets
from engine.game.snapshot import decode, encode
from engine.game.state import HandState, Phase
from engine.rules import RuleSet
from engine.rules.common import TableOptions
from engine.tiles import Tile

log = logging.getLogger(__name__)
T = TypeVar("T")
WORKERS = {"public": 1, "hands": 2}
"""Worker processes per pool, per ``processes``: a discard asks up to three seats at
once, and their DMs are drawn side by side rather than one after the other."""
NICENESS = 10
"""Added to the picture processes' niceness (Unix): they get what the bot leaves."""


_TILES = tuple(Tile)


class _JobPickler(pickle.Pickler):
    """Pickles a job as `pickle` does, except a hand in play: as its snapshot text
    (`engine.game.snapshot`) and the facts of its deal. Pickled record by record, a
    state (its seats, melds, some 60 discards, each a frozen dataclass) took about
    0.13 ms of the event loop per DM (`bench/dmjob.py`; about an eighth of the bot's
    own time in `bench/discord.py --profile`), its text 0.04: the text is mostly made
    already (the service just encoded the same state for the store, and a seat's text
    is kept by its record), and is decoded in the picture process (`decode` checks it
    whole, as a restart does)."""

    def reducer_override(self, obj: object) -> Any:
        if type(obj) is HandState and obj.result is None and obj.phase is not Phase.ENDED:
            return _hand_state, (encode(obj), obj.rules, obj.options, bytes(obj.wall),
                                 obj.dealer, obj.dice, obj.streak, obj.huangfan)
        return NotImplemented


def _hand_state(text: str, rules: str, options: TableOptions, wall: bytes, dealer: int,
                dice: tuple[int, int], streak: int, huangfan: bool) -> HandState:
    """The state `_JobPickler` sent (in the picture process)."""
    return decode(text, rules, options, tuple([_TILES[t] for t in wall]), dealer, dice,
                  streak, huangfan)


def job_bytes(call: object) -> bytes:
    """A picture job as sent to a worker (`_JobPickler`)."""
    out = io.BytesIO()
    _JobPickler(out, pickle.HIGHEST_PROTOCOL).dump(call)
    return out.getvalue()


def _prepare_worker(known: tuple[RuleSet, ...] = ()) -> None:
    """A picture process's initializer: register the rule sets the bot knows (``known``:
    one registered outside the engine's package, as a test's, is otherwise unknown in a
    new process), yield the CPU to the bot's event loop, then draw a hand and a table
    once, so that the modules, fonts and glyph caches are loaded before a player's
    picture is asked for."""
    for ruleset in known:
        rulesets.register(ruleset)
    if hasattr(os, "nice"):
        try:
            os.nice(NICENESS)
        except OSError:
            log.info("the picture process keeps its priority")
    _warm_up()


def _warm_up() -> None:
    """Draw the samples once; a renderer that cannot warm up still draws, only slower
    at first."""
    try:
        _draw_samples()
    except Exception:
        log.exception("could not draw the sample pictures")


def _draw_samples() -> None:
    from bot.discord.play import dms  # noqa: F401  (a DM's words are composed here too)
    from render import samples
    from render.hand import hand_image
    from render.table import table_image

    hand_image(samples.hand_ready())
    table_image(samples.table_start(), ("East", "South", "West", "North"))


class Pictures:
    def __init__(self, processes: int = 1) -> None:
        self.processes = processes
        self._pools: dict[str, WorkerPool] = {}
        self.drawn: dict[str, int] = {"public": 0, "hands": 0}
        """How many pictures each pool drew (benchmarks: pictures per click)."""

    def _pool(self, which: str) -> WorkerPool | None:
        if self.processes <= 0:
            return None
        pool = self._pools.get(which)
        if pool is None:
            prepare = functools.partial(_prepare_worker, rulesets.registered())
            pool = self._pools[which] = WorkerPool(self.processes * WORKERS[which],
                                                   initializer=prepare,
                                                   dumps=job_bytes)
        return pool

    async def start(self) -> None:
        """Start every worker now (each warms up as it starts): the bot calls this as
        it starts, rather than leaving it to the first player who asks. Without
        processes, the renderer of this process warms up in a thread."""
        if self.processes <= 0:
            # drawing in threads: this process's renderer warms up now instead
            await asyncio.to_thread(_warm_up)
            return
        pools = [p for p in map(self._pool, WORKERS) if p is not None]
        try:
            await asyncio.gather(*(pool.start() for pool in pools))
        except BrokenWorkers:
            log.warning("a picture process died as it started; drawing in threads")
            self._fall_back()

    async def draw(self, draw: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """``draw(*args, **kwargs)`` in the public pictures' worker (or a thread)."""
        return await self._run("public", functools.partial(draw, *args, **kwargs))

    async def draw_hand(self, draw: Callable[..., T], *args: Any) -> T:
        """``draw(*args)`` in the hands' worker (or a thread): a seat's DM."""
        return await self._run("hands", functools.partial(draw, *args))

    async def _run(self, which: str, call: Callable[[], T]) -> T:
        self.drawn[which] += 1
        pool = self._pool(which)
        if pool is not None:
            try:
                if not pool.ready():  # still starting: not worth a player's wait
                    pool.launch()
                    return await asyncio.to_thread(call)
                return await pool.run(call)
            except BrokenWorkers:
                log.warning("a picture process died; drawing in threads from now on")
                self._fall_back()
        return await asyncio.to_thread(call)

    def _fall_back(self) -> None:
        """Threads from now on; what is left of the processes is stopped."""
        self.processes = 0
        self.close()

    def pids(self) -> list[int]:
        """The worker processes' ids (benchmarks measure their CPU)."""
        return [pid for pool in self._pools.values() for pid in pool.pids()]

    def close(self) -> None:
        pools, self._pools = list(self._pools.values()), {}
        for pool in pools:
            pool.close()
