"""The process model: one bot process owning its tables, or several sharing a database.

Chosen once, where the service is wired (`TableService(shared=…)`), as one object with
the few operations that differ; no other part asks which it is:

- `fenced`, around a block holding a table's lock: one process, nothing; shared, the
  table's change counter read first (the table reloaded if another process moved it;
  not read for a trusting click) and every write of the block fenced with its bump;
- `judge_again`, a click or a timer refused: one process, never; shared, after a lost
  race (the table reloaded) or a refusal memory made without a fresh read;
- `read`, a query's table: memory as it is; shared, under its lock, checked fresh;
- `undelivered`, the outbox rows to hand over: every one; shared, those this process
  claimed with a lease;
- `starting`, were all processes down at start-up: yes; shared, when no other
  heartbeat was seen within two leases (and this process beats from then on);
- `loop`, what fires the deadlines: the in-memory `Scheduler` (the stored moments
  paged into it); shared, `Claims` (deadlines claimed from the database, heartbeats,
  the outbox sweep).
"""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import TYPE_CHECKING, Protocol

from bot.service import errors as E
from bot.service.claims import Claims, Heartbeats
from bot.service.clock import Clock
from bot.service.errors import Refused
from bot.service.live import LiveTable
from bot.service.scheduler import Fire, Scheduler, Source
from bot.store import AnnouncementRow, NotFound, Store, TableBump

if TYPE_CHECKING:
    from bot.service.tables import LiveTables


class Loop(Protocol):
    """What plays the deadlines while the bot runs."""

    async def run(self) -> None: ...

    async def run_due(self) -> int: ...

    def stop(self) -> None: ...

    async def drain(self) -> None: ...


class ProcessModel(Protocol):
    """What differs between one process and several on one database (module docstring)."""

    def fenced(self, tables: LiveTables, live: LiveTable, *, trusting: bool
               ) -> contextlib.AbstractAsyncContextManager[None]:
        """Around a block holding ``live``'s lock: how its memory is made fresh and its
        writes fenced."""
        ...

    async def judge_again(self, tables: LiveTables, live: LiveTable, refused: Refused
                          ) -> bool:
        """A click or a timer was refused: whether to judge it again (the table then
        fresh)."""
        ...

    async def read(self, tables: LiveTables, table_id: int) -> LiveTable:
        """The live table a query reads."""
        ...

    async def undelivered(self, table_id: int | None = None, *,
                          created_before: float | None = None) -> list[AnnouncementRow]:
        """The outbox rows this process is to hand to its notifier."""
        ...

    async def starting(self) -> bool:
        """Start-up: whether every process was down (the restart grace is owed, and the
        DMs a crash lost are this process's to send)."""
        ...

    async def before_resend(self) -> None:
        """Start-up, every process having been down, before the lost DMs are sent."""
        ...

    def loop(self, scheduler: Scheduler, fire: Fire, *,
             sweep: Callable[..., Awaitable[None]],
             take_over: Callable[..., Awaitable[int]], moments: Source) -> Loop:
        """What fires the deadlines (``fire``: `Alarms.fire`); ``sweep`` delivers the
        outbox's forgotten rows (`Recovery.redeliver`), ``take_over`` sends a dead
        process's lost DMs (`Recovery.resend`); ``moments``: the stored deadlines'
        next moments a page at a time (`Timers.next_moments`), for a scheduler that
        fires them from memory."""
        ...


class SchedulerLoop:
    """One process: its `Scheduler` fires every moment from memory."""

    def __init__(self, scheduler: Scheduler, fire: Fire) -> None:
        self._scheduler = scheduler
        self._fire = fire

    async def run(self) -> None:
        await self._scheduler.run(self._fire)

    async def run_due(self) -> int:
        return await self._scheduler.run_due(self._fire)

    def stop(self) -> None:
        self._scheduler.stop()

    async def drain(self) -> None:
        await self._scheduler.drain()


class OneProcess:
    """One bot process owns every table: memory is the truth, nothing is claimed."""

    def __init__(self, store: Store) -> None:
        self._store = store

    @contextlib.asynccontextmanager
    async def fenced(self, tables: LiveTables, live: LiveTable, *, trusting: bool
                     ) -> AsyncIterator[None]:
        yield

    async def judge_again(self, tables: LiveTables, live: LiveTable, refused: Refused
                          ) -> bool:
        return False

    async def read(self, tables: LiveTables, table_id: int) -> LiveTable:
        return await tables.get(table_id)

    async def undelivered(self, table_id: int | None = None, *,
                          created_before: float | None = None) -> list[AnnouncementRow]:
        return await self._store.outbox.undelivered(table_id)

    async def starting(self) -> bool:
        return True

    async def before_resend(self) -> None:
        return None

    def loop(self, scheduler: Scheduler, fire: Fire, *,
             sweep: Callable[..., Awaitable[None]],
             take_over: Callable[..., Awaitable[int]], moments: Source) -> Loop:
        scheduler.page_from(moments)  # the tables not in memory: their next moments
        return SchedulerLoop(scheduler, fire)


class SharedProcess:
    """Several processes serve the same tables from one database (PostgreSQL).

    Memory may be stale: under a table's lock its change counter
    (``game_tables.version``, migration 0008) is read, and the table reloaded in place
    if another process moved it since; every write transaction made in the block adds
    one to the counter as its last statement (no transaction of its own), and memory
    stays trusted only if each bump was exactly one more than the last (nobody else
    wrote meanwhile; else the next command reloads). A refusal changes nothing; any
    other exception forgets the counter.

    A trusting block (a click) does not read the counter when memory is believed
    current: its first write is a compare-and-set on it instead, so a table another
    process moved meanwhile makes that write fail (`StaleTable`: reload, judge again),
    and a refusal is checked (`judge_again`: one read of the counter) before it stands.

    Deadlines and announcements are claimed from the database with leases (claims.py);
    each process keeps a heartbeat row."""

    def __init__(self, store: Store, clock: Clock, *, claim_lease: float = 15.0,
                 claim_poll: float = 0.25, announce_lease: float = 120.0) -> None:
        self._store = store
        self._clock = clock
        self.owner = secrets.token_hex(8)
        """This process's name on its claims (random: a restarted process is another)."""
        self.heart = Heartbeats(store, clock, self.owner, claim_lease)
        self._poll = claim_poll
        self._announce_lease = announce_lease

    @contextlib.asynccontextmanager
    async def fenced(self, tables: LiveTables, live: LiveTable, *, trusting: bool
                     ) -> AsyncIterator[None]:
        trust = trusting and live.version is not None
        with self._bumping(tables, live, expect=trust):  # a reload that mends bumps too
            if not trust:
                await self._fresh(tables, live)
            yield

    async def judge_again(self, tables: LiveTables, live: LiveTable, refused: Refused
                          ) -> bool:
        """Another process's move landed first (the table is reloaded now), or memory
        judged without a fresh read and is behind (the counter moved: reloaded); either
        way it is judged again against what is stored. Memory current: it stands."""
        if refused.code == E.RACED:
            await tables.settle(live)
            return True
        try:
            version = await self._store.processes.table_version(live.id)
        except NotFound:
            version = None
        if version is not None and version == live.version:
            return False
        await self._fresh(tables, live)
        return True

    async def read(self, tables: LiveTables, table_id: int) -> LiveTable:
        async with tables.locked(table_id) as live:
            return live

    async def undelivered(self, table_id: int | None = None, *,
                          created_before: float | None = None) -> list[AnnouncementRow]:
        """Those this process claimed (another may be delivering the others)."""
        now = self._clock.now()
        return await self._store.outbox.claim(
            now, owner=self.owner, until=now + self._announce_lease, table_id=table_id,
            created_before=created_before)

    async def starting(self) -> bool:
        """Another process alive may be serving the deadlines right now, so nothing is
        deferred; with none alive, all were down: the grace is owed. This one is alive
        from now on, to the processes starting next."""
        down = await self.heart.alone()
        await self.heart.beat()
        return down

    async def before_resend(self) -> None:
        """The dead processes' rows go first, so that nobody takes them over again."""
        await self.heart.bury()

    def loop(self, scheduler: Scheduler, fire: Fire, *,
             sweep: Callable[..., Awaitable[None]],
             take_over: Callable[..., Awaitable[int]], moments: Source) -> Loop:
        # every stored moment is claimed from the database (its index): none is paged
        return Claims(self._store, self._clock, scheduler, self.heart, fire, sweep=sweep,
                      take_over=take_over, poll=self._poll)

    @contextlib.contextmanager
    def _bumping(self, tables: LiveTables, live: LiveTable, *, expect: bool = False
                 ) -> Iterator[None]:
        """The block's table writes carry ``live.fence``: each bumps the table's counter
        in its own transaction (the first a compare-and-set with ``expect``);
        afterwards memory keeps the counter only if nobody else wrote meanwhile. A
        refusal changes nothing; any other exception forgets the counter (half done?
        the next command reloads)."""
        bump = live.fence = TableBump(live.id, live.version, expect)
        try:
            yield
        except Refused:
            live.version = bump.known
            raise
        except BaseException:
            live.version = None
            raise
        finally:
            bump.armed = False  # a write made after the block bumps nothing
            live.fence = None
        # dropped meanwhile (over, or failed to reload): nothing to trust
        live.version = bump.known if tables.loaded.get(live.id) is live else None

    async def _fresh(self, tables: LiveTables, live: LiveTable) -> None:
        try:
            version = await self._store.processes.table_version(live.id)
        except NotFound:
            version = None
        if version is None or version != live.version:
            await tables.reload(live)
            if tables.loaded.get(live.id) is not live:  # over meanwhile: say how
                await tables.get(live.id)
                raise Refused(E.NO_TABLE, "there is no such table")  # pragma: no cover
