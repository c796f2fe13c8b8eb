"""One scheduler for every table: it sleeps until the earliest pending moment (a
deadline, a half-time reminder, a computer's move) and hands it to the service.

It holds only the next moments, not every table's: the tables in memory push theirs
(`Timers.schedule`), and the others' are read from the database a page at a time
(`page_from`: the deadlines in the order their next moments come, migration 0031's
index) as the earliest held moment reaches the last one read. So with a hundred
thousand live tables the heap holds a page of moments plus those of the tables in
memory. A table that leaves memory (`unload`) keeps its moments up to the last one
read and forgets the later ones, which the next pages bring back.

Entries are kept per (table, seat): the service replaces a seat's entries when its
decision changes and forgets them when it is answered or superseded (the move landed,
the window closed, the hand ended, the table was cancelled or finished), so with
12-hour timers memory holds only the decisions still open. A forgotten entry stays in
the heap until it surfaces or the heap is compacted (lazy deletion: forgetting costs no
heap surgery), but it never fires; compaction keeps the heap within a small multiple
of the live entries. The service still checks each firing against the table's live
state (a recovered deadline may belong to a table that changed since).
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from typing import Literal, NamedTuple

from bot.service.clock import Clock

log = logging.getLogger(__name__)


class Wake(NamedTuple):
    """A moment something may happen at a table: ``due`` plays the decision,
    ``remind`` sends the half-time reminder, ``warn`` the warning when a quarter of the
    time is left. Ordered by its fields in turn, the moment first; a tuple, so that the
    heap's comparisons and the sets' hashes are the interpreter's own, not Python code
    (a move pushes and hashes some twenty)."""

    when: float
    table_id: int
    hand_id: int
    seat: int
    step: int
    what: Literal["due", "remind", "warn"] = "due"


Fire = Callable[[Wake], Awaitable[None]]
"""What a moment is handed to when it comes."""

Moment = tuple[float, int, int]
"""A stored deadline's place in the order moments come: its next moment, hand, seat
(`bot.store.deadlines.Moment`)."""
Source = Callable[[Moment | None, int], Awaitable[list[tuple[Moment, Wake]]]]
"""The next stored moments after a place (None: from the first), at most so many, each
with its place, in order (`Timers.next_moments`)."""

PAGE = 256
"""Stored moments read at once: the heap holds about this many besides those of the
tables in memory."""
MARGIN = 1.0
"""Seconds past the last moment read within which a table leaving memory keeps its
moments (a moment worked out in Python and in SQL may differ in its last bit)."""
RETRY = 1.0
"""Seconds before a failed read of the next moments is tried again."""

COMPACT_SLACK = 16
"""Dead heap entries tolerated beyond as many as there are live ones: compaction runs
when the heap exceeds twice the live entries plus this, so it stays amortised O(1)."""


class Scheduler:
    def __init__(self, clock: Clock, *, concurrency: int = 32) -> None:
        """The moments of every table; `run` and `run_due` hand each, when it comes, to
        the ``fire`` they are given (`Alarms.fire`)."""
        self._clock = clock
        self._heap: list[Wake] = []
        # the live entries, table -> seat -> wakes: a heap entry not in here is dead
        self._live: dict[int, dict[int, set[Wake]]] = {}
        self._count = 0
        self._wake = asyncio.Event()
        self._limit = asyncio.Semaphore(concurrency)
        self._tasks: set[asyncio.Task[None]] = set()
        self._firing: set[Wake] = set()
        """The entries firing now: the table a stored moment loads as it fires schedules
        that moment again, which is the same one, not a second."""
        self._running = False
        self._source: Source | None = None
        self._read_to: Moment | None = None
        """The place of the last stored moment read: every stored moment up to it is
        in the heap (or its table's, in memory, are)."""
        self._all_read = True
        """No stored moment after ``_read_to`` is missing from the heap."""
        self.pages = 0
        """Pages read (tests and the bench)."""

    def page_from(self, source: Source) -> None:
        """Read the stored moments from ``source``, from the first (again: after a
        start-up moved the overdue ones)."""
        self._source = source
        self.reread()

    def reread(self) -> None:
        """The stored moments changed behind memory's back (start-up's grace): read
        them again from the first."""
        if self._source is not None:
            self._read_to = None
            self._all_read = False
            self._wake.set()

    def unload(self, table_id: int) -> None:
        """The table left memory: its moments after the last one read are forgotten
        (the next pages bring them back); the others stay. Without a source (shared
        mode, where the database's claims fire every moment) all of them go."""
        table = self._live.get(table_id)
        if table is None:
            return
        if self._source is None:
            self.forget(table_id)
            return
        limit = None if self._read_to is None else self._read_to[0] + MARGIN
        dropped = False
        for seat in list(table):
            wakes = table[seat]
            late = {w for w in wakes if limit is None or w.when > limit}
            if late:
                wakes -= late
                self._count -= len(late)
                dropped = True
                if not wakes:
                    del table[seat]
        if not table:
            del self._live[table_id]
        if dropped:
            self._all_read = False
            self._wake.set()  # a forgotten moment may come before the one slept for
            self._compact()

    async def top_up(self) -> None:
        """Read the next page of stored moments while the earliest held one comes after
        the last one read (a stored moment not read may come first)."""
        while self._source is not None and not self._all_read:
            earliest = self.earliest()
            if earliest is not None and self._read_to is not None \
                    and earliest <= self._read_to[0]:
                return  # (moments tied with the last read come after it: next page)
            page = await self._source(self._read_to, PAGE)
            self.pages += 1
            for _, wake in page:
                self.push(wake)
            if page:
                self._read_to = page[-1][0]
            if len(page) < PAGE:
                self._all_read = True

    def __len__(self) -> int:
        """The live entries (what may still fire)."""
        return self._count

    @property
    def heap_size(self) -> int:
        """Entries in the heap, dead ones included (for tests and the bench)."""
        return len(self._heap)

    def entries(self) -> frozenset[Wake]:
        """The live entries (for tests and the bench)."""
        return frozenset(w for table in self._live.values() for wakes in table.values()
                         for w in wakes)

    def push(self, wake: Wake) -> None:
        """Add an entry beside the seat's others (a pushed duplicate is one entry)."""
        if wake in self._firing:  # the table it loads schedules it again: one firing
            return
        wakes = self._live.setdefault(wake.table_id, {}).setdefault(wake.seat, set())
        if wake in wakes:
            return
        wakes.add(wake)
        self._count += 1
        earliest = self.earliest()
        heapq.heappush(self._heap, wake)
        if earliest is None or wake.when < earliest:
            self._wake.set()

    def replace(self, table_id: int, seat: int, wakes: Iterable[Wake]) -> None:
        """The seat's decision changed: its old entries go, these come."""
        self.forget(table_id, (seat,))
        for wake in wakes:
            self.push(wake)

    def forget(self, table_id: int, seats: Iterable[int] | None = None) -> None:
        """Drop the entries of these seats (all the table's when None): their decision
        was answered or superseded."""
        table = self._live.get(table_id)
        if table is None:
            return
        for seat in list(table) if seats is None else seats:
            self._count -= len(table.pop(seat, ()))
        if not table:
            del self._live[table_id]
        self._compact()

    def keep(self, table_id: int, seats: Iterable[int]) -> None:
        """Drop the entries of the table's seats other than these."""
        table = self._live.get(table_id)
        if table is not None:
            self.forget(table_id, set(table) - set(seats))

    @property
    def woken(self) -> asyncio.Event:
        """Set when an entry earlier than all the others arrives (or on `stop`)."""
        return self._wake

    def discard_due(self, now: float) -> None:
        """Drop the entries due by ``now`` without firing them: in shared mode the
        database's claims fire every deadline, these only say when to look."""
        while (when := self.earliest()) is not None and when <= now:
            self._pop()

    def busy(self, horizon: float = 0.0) -> bool:
        """Whether a firing is under way or an entry comes due within ``horizon``
        seconds (what a test waits for before it calls the bot idle)."""
        when = self.earliest()
        return bool(self._tasks) or (when is not None and when <= self._clock.now() + horizon)

    def earliest(self) -> float | None:
        self._drop_dead_head()
        return self._heap[0].when if self._heap else None

    async def run_due(self, fire: Fire) -> int:
        """Fire everything due now, one after another, including what those firings
        make due (a chain of computer moves with no pause); return how many fired."""
        fired = 0
        while True:
            await self.top_up()
            when = self.earliest()
            if when is None or when > self._clock.now():
                return fired
            await self._fire_one(fire, self._pop())
            fired += 1

    async def run(self, fire: Fire) -> None:
        """Forever: sleep until the earliest entry, then fire it (concurrently across
        tables; the service's per-table lock keeps each table in order)."""
        self._running = True
        try:
            while self._running:
                self._wake.clear()
                try:
                    await self.top_up()
                except Exception:  # the database away a moment: try again soon
                    log.exception("the next deadlines could not be read")
                    await self._clock.sleep_until(self._clock.now() + RETRY, self._wake)
                    continue
                when = self.earliest()
                if when is None:
                    await self._wake.wait()
                    continue
                if when > self._clock.now():
                    await self._clock.sleep_until(when, self._wake)
                    continue
                wake = self._pop()
                await self._limit.acquire()
                task = asyncio.create_task(self._fire_released(fire, wake))
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

    def _is_live(self, wake: Wake) -> bool:
        return wake in self._live.get(wake.table_id, {}).get(wake.seat, ())

    def _drop_dead_head(self) -> None:
        while self._heap and not self._is_live(self._heap[0]):
            heapq.heappop(self._heap)

    def _pop(self) -> Wake:
        """Take the earliest live entry (the caller checked there is one): it leaves
        the live entries as it fires."""
        self._drop_dead_head()
        wake = heapq.heappop(self._heap)
        table = self._live[wake.table_id]
        wakes = table[wake.seat]
        wakes.discard(wake)
        self._count -= 1
        if not wakes:
            del table[wake.seat]
            if not table:
                del self._live[wake.table_id]
        return wake

    def _compact(self) -> None:
        """Rebuild the heap from the live entries once dead ones outnumber them."""
        if self._count and len(self._heap) <= 2 * self._count + COMPACT_SLACK:
            return
        self._heap = list(self.entries())
        heapq.heapify(self._heap)

    async def _fire_released(self, fire: Fire, wake: Wake) -> None:
        try:
            await self._fire_one(fire, wake)
        finally:
            self._limit.release()

    async def _fire_one(self, fire: Fire, wake: Wake) -> None:
        self._firing.add(wake)
        try:
            await _safe_fire(fire, wake)
        finally:
            self._firing.discard(wake)


async def _safe_fire(fire: Fire, wake: Wake) -> None:
    try:
        await fire(wake)
    except asyncio.CancelledError:
        raise
    except Exception:
        log.exception("scheduled %s for table %s seat %s failed", wake.what,
                      wake.table_id, wake.seat)


@contextlib.asynccontextmanager
async def running(scheduler: Scheduler, fire: Fire) -> AsyncIterator[asyncio.Task[None]]:
    """Run the scheduler in the background for the length of a block."""
    task = asyncio.create_task(scheduler.run(fire))
    try:
        yield task
    finally:
        scheduler.stop()
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        await scheduler.drain()
