"""`Recovery`: serving again after a start-up.

`recover` runs at start-up (undelivered announcements first, overdue deadlines
deferred, broken tables mended now): nothing per live table, every other table is
loaded on first use; `warm` (tools, benches: the bot does not call it) loads the rest,
a batch at a time (`LiveTables.load_batch`); `resend_dms` DMs again the decisions a
crash left untold. The live tables themselves (loaded on first use,
locked, reloaded) are `LiveTables` (tables.py).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from bot.service.announcements import Announcer
from bot.service.clock import Clock
from bot.service.errors import Refused
from bot.service.notices import TableInfo
from bot.service.process import ProcessModel
from bot.service.results import RecoveryReport
from bot.service.scheduler import Scheduler
from bot.service.tables import LiveTables
from bot.store import OwedDm, Store

log = logging.getLogger(__name__)

WARM_BATCH = 50
"""Tables `warm` reads at once: a first use of one of them waits for its batch (a few
tens of milliseconds), and the reads are a dozen statements a batch, not a table."""


class Recovery:
    """Start-up: the live tables back, the outbox and the lost DMs handed over."""

    def __init__(self, store: Store, clock: Clock, scheduler: Scheduler, tables: LiveTables,
                 announcer: Announcer, process: ProcessModel,
                 table_info: Callable[[int], Awaitable[TableInfo]], *, grace: float,
                 computer_pause: float) -> None:
        """``table_info``: `Queries.table_info` (a lobby announcement of a table not in
        memory is worded from it)."""
        self._store = store
        self._clock = clock
        self._scheduler = scheduler
        self._tables = tables
        self._announcer = announcer
        self._process = process
        self._table_info = table_info
        self.grace = grace
        self.computer_pause = computer_pause
        self.all_were_down = False
        """Set by `recover`: no other process was alive (always so for one bot)."""

    async def redeliver(self, *, created_before: float | None = None) -> None:
        """Every announcement a crash left undelivered, in order per table (shared
        mode: those nobody delivers; ``created_before``: see `Claims.sweep`)."""
        await self._announcer.redeliver(self._table_info, created_before=created_before)

    async def recover(self, *, eager: bool = False, counted: bool = True) -> RecoveryReport:
        """Bring every live table back after a start-up, with no work per live table.

        Deadlines due before now + grace (those that passed while the bot was down, and
        those it left less than the grace: the downtime was theirs too) move to now +
        grace (a person's) or now + ``computer_pause`` (a computer's, an away seat's, a
        standing choice's: grace is for people) — in shared mode only when no other process was seen
        alive lately (`SharedProcess.starting`); one statement whatever their number.
        The scheduler then reads the next moments again from the first (it holds only
        those: `Scheduler.page_from`). Tables that need work at once (playing but with
        no deadline: a crash of an older version between two writes, listed once by
        migration 0035, `Deadlines.stranded`) are rebuilt now; every other table on
        first use (a click, a command, its deadline), so the bot serves again in
        milliseconds with a hundred thousand tables. With ``eager`` every live table is
        replayed now (tests, benches). Without ``counted`` the report does not count the
        live tables and deadlines (the bot's start: each count reads an index entry per
        live table, tens of milliseconds at a hundred thousand on PostgreSQL).
        """
        now = self._clock.now()
        await self.redeliver()
        down = await self._process.starting()
        deferred = 0 if not down else await self._store.deadlines.defer_overdue(
            now + self.grace, computer_until=now + self.computer_pause)
        self._scheduler.reread()
        live = await self._store.lobby.count_live() if counted else None
        deadlines = await self._store.deadlines.count() if counted else None
        todo = [t.id for t in await self._store.lobby.live_tables()] if eager else \
            await self._store.deadlines.stranded()
        # nothing to mend (every start but the first after an upgrade): no read at all
        failed = await self._tables.load_batch(todo) if todo else []
        if not eager:  # mended: off migration 0035's list (a crash before: mended again)
            await self._store.deadlines.mended(sorted(set(todo) - set(failed)))
        self.all_were_down = down
        return RecoveryReport(live, len(todo) - len(failed), deadlines, deferred,
                              tuple(failed))

    async def resend_dms(self) -> int:
        """Start-up, after `recover`: the DMs a crash left unsent (`resend`), when this
        process is the one to send them: always for one bot; in shared mode only when
        every process was down (the dead processes' rows are removed first, so nobody
        takes them over again); with another alive, the dead one's DMs come from the
        survivor that takes it over (`Claims.take_over`)."""
        if not self.all_were_down:
            return 0
        await self._process.before_resend()
        return await self.resend()

    async def resend(self, *, set_before: float | None = None) -> int:
        """DM again each pending decision whose DM a crash lost: the store knows the
        step each seat's DM shows (`Presenter.owed_dms`), so a table whose players were all
        told is not touched, nor a seat whose DM is current. Run by `resend_dms` (after a
        crash of the one bot, or of every process) and, in shared mode, by the survivor
        that takes a dead process over (`Claims.take_over`; ``set_before``: decisions set
        while it may still have been writing). How many DMs were handed over."""
        by_table: dict[int, list[OwedDm]] = {}
        for owed in await self._store.presenter.owed_dms(set_before=set_before):
            by_table.setdefault(owed.table_id, []).append(owed)
        sent = 0
        for table_id, owed_here in by_table.items():
            try:
                async with self._tables.locked(table_id) as live:  # the table as it is now
                    sent += await self._announcer.resend(live, owed_here)
            except Refused:
                continue  # over meanwhile: nothing is owed
            except Exception:  # one table's failure must not keep the others' DMs
                log.exception("table %s: the DMs a crash lost could not be sent", table_id)
        if sent:
            log.info("%s DM(s) a crash left unsent handed over again", sent)
        return sent

    async def warm(self) -> int:
        """Rebuild, a batch of `WARM_BATCH` at a time, the live tables a lazy `recover`
        left for later (run it as a background task); return how many were rebuilt."""
        loaded = self._tables.loaded
        todo = [row.id for row in await self._store.lobby.live_tables() if row.id not in loaded]
        rebuilt = 0
        for start in range(0, len(todo), WARM_BATCH):
            batch = todo[start:start + WARM_BATCH]
            fresh = [t for t in batch if t not in loaded]
            failed = set(await self._tables.load_batch(fresh))
            rebuilt += sum(1 for t in fresh if t in loaded and t not in failed)
            await asyncio.sleep(0)  # commands go first between batches
        return rebuilt
