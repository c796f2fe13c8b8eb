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
hand's state travels as its snapshot text (`job_bytes`), and a seat's DM as plain
values only (`draw_hand_job`: no class named, nothing called back as it is pickled).
With ``processes=0`` (or a broken pool) everything is drawn in threads.

The workers run at a lower CPU priority (`NICENESS`): on a busy machine a picture can
wait, a click's answer cannot, and the drawing (most of a click's CPU) would otherwise
take the core the event loop needs.

The bot starts its workers as it starts (`Pictures.start`), and each draws once before
its first job (`_prepare_worker`): otherwise the first player to ask would wait for a
worker's start-up — importing Pillow, the engine and the fonts, about a second, and
several on a busy machine at the workers' lower priority. Until the workers are ready,
pictures are drawn here: a restart owes its DMs and table pictures at once, and waiting
for the workers held them back 10–13 s on a loaded machine (issue 28) while the moves
went on. Drawn here, they are drawn in one thread a pool (`_Interim`: a DM still never
queues behind table pictures), one picture at a time each, and what that drawing kept
is let go as soon as every worker is ready (`_let_go`: the renderer's caches and kept
pieces, then the C heap's free pages given back). Drawn in the default executor's
threads, up to six at once, they had left the bot's process at 268 MiB where it was
83 (issue 32: the caches, the kept pieces' 96 MiB budget, and six threads' malloc
arenas never given back), and held the GIL six ways while the clicks waited.
"""

from __future__ import annotations

import asyncio
import ctypes
import dataclasses
import functools
import io
import logging
import os
import pickle
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from bot.discord.core.workers import BrokenWorkers, WorkerPool, found, name_of
from engine import rules as rulesets
from engine.game.events import Event
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


PlainState = tuple[str, str, str, dict[str, Any], bytes, int, tuple[int, int], int, bool]
"""A hand in play as plain values (`plain_state`)."""


def plain_state(state: HandState) -> PlainState | HandState:
    """A state as a job made of plain values carries it (`Pictures.draw_hand_job`): a
    hand in play as its snapshot text and the facts of its deal, its options as their
    class's name and fields (rebuilt as pickle does); an ended hand as it is."""
    if type(state) is not HandState or state.result is not None or state.phase is Phase.ENDED:
        return state
    options = state.options
    return (encode(state), state.rules, name_of(type(options)), vars(options),
            bytes(state.wall), state.dealer, state.dice, state.streak, state.huangfan)


def state_of(plain: PlainState | HandState) -> HandState:
    """The state `plain_state` made plain (in the picture process)."""
    if isinstance(plain, HandState):
        return plain
    text, rules, kind, fields, wall, dealer, dice, streak, huangfan = plain
    return _hand_state(text, rules, _rebuilt(kind, fields), wall, dealer, dice, streak,
                       huangfan)


def plain_record(record: object) -> tuple[str, dict[str, Any]]:
    """A record of plain fields (a frozen dataclass: a seat's standing choices) as a job
    made of plain values carries it: its class's name and its fields."""
    return name_of(type(record)), vars(record)


def record_of(plain: tuple[str, dict[str, Any]] | object) -> Any:
    """The record `plain_record` made plain (in the picture process; a record not made
    plain is itself)."""
    if type(plain) is not tuple:
        return plain
    return _rebuilt(*plain)


def _rebuilt(kind: str, fields: dict[str, Any]) -> Any:
    """An object of the class named ``kind`` with ``fields`` (no ``__init__`` run: its
    fields are those of an object that was made, as pickle rebuilds one)."""
    cls = found(kind)
    made = cls.__new__(cls)
    made.__dict__.update(fields)
    return made


_TILE_FIELDS = frozenset({"Tile", "Tile | None"})
_PLAIN_FIELDS = frozenset({"int", "bool", "str", "float", "int | None", "str | None",
                           "tuple[int, ...]", "tuple[int, int]"}) | _TILE_FIELDS


@dataclasses.dataclass(frozen=True)
class _EventKind:
    name: str
    """The class's name (`name_of`)."""
    tiles: tuple[str, ...]
    """Its fields that hold a tile (sent as the tile's number)."""
    plain: bool
    """Whether every field is a plain value or a tile (else the event goes as it is)."""


_EVENT_KINDS: dict[type, _EventKind] = {}


def _event_kind(cls: type) -> _EventKind:
    kind = _EVENT_KINDS.get(cls)
    if kind is None and not dataclasses.is_dataclass(cls):  # goes as it is
        kind = _EVENT_KINDS[cls] = _EventKind("", (), False)
    if kind is None:
        fields = dataclasses.fields(cls)
        kind = _EVENT_KINDS[cls] = _EventKind(
            name_of(cls), tuple(f.name for f in fields if f.type in _TILE_FIELDS),
            all(isinstance(f.type, str) and f.type in _PLAIN_FIELDS for f in fields))
    return kind


def plain_events(news: Sequence[Event]) -> tuple[Any, ...]:
    """Events as a job made of plain values carries them: each its class's name and its
    fields, a tile as its number (pickled as themselves, a discard's two objects took a
    Python call each and a look-up of their classes); an event with other fields (a
    meld, an action, a result) as it is."""
    out: list[Any] = []
    for event in news:
        kind = _event_kind(type(event))
        if not kind.plain:
            out.append(event)
            continue
        fields = vars(event)
        if kind.tiles:
            fields = dict(fields)
            for name in kind.tiles:
                tile = fields[name]
                if tile is not None:
                    fields[name] = int(tile)
        out.append((kind.name, fields))
    return tuple(out)


def events_of(plain: tuple[Any, ...]) -> tuple[Event, ...]:
    """The events `plain_events` made plain (in the picture process)."""
    out = []
    for event in plain:
        if type(event) is tuple:
            name, fields = event
            tiles = _event_kind(found(name)).tiles
            if tiles:
                fields = dict(fields)
                for field in tiles:
                    if fields[field] is not None:
                        fields[field] = _TILES[fields[field]]
            event = _rebuilt(name, fields)
        out.append(event)
    return tuple(out)


def table_job(state: HandState, hand_number: int, names: tuple[str, ...], plain: bool
              ) -> tuple[Any, ...]:
    """A table picture's job (`Pictures.draw_job`, `table_picture`): the state made plain
    (its text is the one the move wrote, `plain_state`) instead of its public view,
    which `job_bytes` pickled record by record (its seats, discards, melds, tiles: ~140
    µs of the event loop a picture in the busy bench)."""
    return (plain_state(state) if plain else state), hand_number, names


def table_picture(state: PlainState | HandState, hand_number: int, names: tuple[str, ...]
                  ) -> bytes:
    """`table_job`'s picture (in the public pictures' worker): the table's public view
    made of the state, drawn."""
    from engine.view import spectator_view
    from render.table import table_image

    return table_image(spectator_view(state_of(state), hand_number), names)


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


def _let_go() -> None:
    """What drawing in this process kept, let go (the workers draw from now on): every
    cache of the renderer's modules (fonts, glyph masks, tile sprites, the cloths), the
    table's kept pieces, then the C heap's free pages given back to the system (glibc's
    ``malloc_trim``: freed memory otherwise stays in the process, most of it in the
    drawing thread's own arena)."""
    from render.table import PIECES

    PIECES.clear()
    for name, module in list(sys.modules.items()):
        if module is None or not (name == "render" or name.startswith("render.")):
            continue
        for value in list(vars(module).values()):
            clear = getattr(value, "cache_clear", None)
            if callable(clear) and getattr(value, "__module__", None) == name:
                clear()
    _trim()


def _trim() -> None:
    """The C heap's free memory given back to the system, where the C library can."""
    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):  # not glibc: its allocator does what it does
        return
    trim(0)


class _Interim:
    """Where pictures are drawn while the workers start: one thread a pool, made on the
    first picture, gone (with what it kept, `_let_go`) once every worker is ready."""

    def __init__(self) -> None:
        self._threads: dict[str, ThreadPoolExecutor] = {}
        self.settling: asyncio.Task[None] | None = None

    def __bool__(self) -> bool:
        return bool(self._threads)

    async def run(self, which: str, call: Callable[[], T]) -> T:
        thread = self._threads.get(which)
        if thread is None:
            thread = self._threads[which] = ThreadPoolExecutor(
                1, thread_name_prefix=f"mahjong-draw-{which}")
        return await asyncio.get_running_loop().run_in_executor(thread, call)

    def settle(self) -> None:
        """Every worker is ready: the threads end, after what they were given, and
        what they kept is let go (a task: nobody waits for it)."""
        if self._threads and self.settling is None:
            threads, self._threads = list(self._threads.values()), {}
            self.settling = asyncio.create_task(self._settle(threads),
                                                name="mahjong-pictures-let-go")

    async def _settle(self, threads: list[ThreadPoolExecutor]) -> None:
        loop = asyncio.get_running_loop()
        try:
            # each thread's pictures drawn (a job behind them), then one lets go
            await asyncio.gather(*(loop.run_in_executor(t, _nothing) for t in threads))
            await loop.run_in_executor(threads[0], _let_go)
        finally:
            for thread in threads:
                thread.shutdown(wait=False)
            self.settling = None

    def close(self) -> None:
        threads, self._threads = list(self._threads.values()), {}
        for thread in threads:
            thread.shutdown(wait=False)


def _nothing() -> None:
    pass


def _unplain(draw: Callable[..., T], args: Callable[[bool], tuple[Any, ...]]) -> T:
    """`Pictures.draw_hand_job`'s job drawn in a thread: on the objects themselves."""
    return draw(*args(False))


class Pictures:
    def __init__(self, processes: int = 1) -> None:
        self.processes = processes
        self._pools: dict[str, WorkerPool] = {}
        self._interim = _Interim()
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
            return
        self._interim.settle()

    async def draw(self, draw: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """``draw(*args, **kwargs)`` in the public pictures' worker (or a thread)."""
        return await self._run("public", functools.partial(draw, *args, **kwargs))

    async def draw_hand(self, draw: Callable[..., T], *args: Any) -> T:
        """``draw(*args)`` in the hands' worker (or a thread): a seat's DM."""
        return await self._run("hands", functools.partial(draw, *args))

    async def draw_hand_job(self, draw: Callable[..., T],
                            args: Callable[[bool], tuple[Any, ...]]) -> T:
        """``draw(*args(plain))`` in the hands' worker (or a thread), as `draw_hand`,
        where ``draw`` is a module's function. ``args(True)``: plain values (numbers,
        text, tuples, dicts: `plain_state`, `plain_events`), for a worker: the job is
        pickled by pickle's C code alone (`WorkerPool.run_named`); ``args(False)``: the
        objects themselves, for a thread of this process (a state read back from its
        text here would be a copy, its view and advice not the ones already worked out
        for it). A seat's DM: pickled by `job_bytes`, its partials, notice records,
        events and tiles took the event loop 35–44 µs a DM hot (`bench/dmjob.py`),
        ~150 in the busy `bench/discord.py`; made plain and pickled, 11–19 and ~55."""
        return await self._run("hands", functools.partial(_unplain, draw, args), (draw, args))

    async def draw_job(self, draw: Callable[..., T], args: Callable[[bool], tuple[Any, ...]]
                       ) -> T:
        """`draw_hand_job` in the public pictures' worker (or a thread): a table's
        picture (`table_job`)."""
        return await self._run("public", functools.partial(_unplain, draw, args), (draw, args))

    async def _run(self, which: str, call: Callable[[], T],
                   named: tuple[Callable[..., T], Callable[[bool], tuple[Any, ...]]] | None
                   = None) -> T:
        self.drawn[which] += 1
        pool = self._pool(which)
        if pool is not None:
            try:
                if not pool.ready():  # still starting: not worth a player's wait
                    self._launch()
                    return await self._interim.run(which, call)
                if self._interim and self._ready():
                    self._interim.settle()
                if named is not None:
                    return await pool.run_named(named[0], named[1](True))
                return await pool.run(call)
            except BrokenWorkers:
                log.warning("a picture process died; drawing in threads from now on")
                self._fall_back()
        return await asyncio.to_thread(call)

    def _launch(self) -> None:
        """Every worker started, if nobody started them (`start`)."""
        for which in WORKERS:
            pool = self._pool(which)
            if pool is not None:
                pool.launch()

    def _ready(self) -> bool:
        """Whether every pool has a worker ready (what was drawn here can go)."""
        return all(which in self._pools and self._pools[which].ready() for which in WORKERS)

    def _fall_back(self) -> None:
        """Threads from now on; what is left of the processes is stopped."""
        self.processes = 0
        self.close()

    def pids(self) -> list[int]:
        """The worker processes' ids (benchmarks measure their CPU)."""
        return [pid for pool in self._pools.values() for pid in pool.pids()]

    def close(self) -> None:
        self._interim.close()
        pools, self._pools = list(self._pools.values()), {}
        for pool in pools:
            pool.close()
