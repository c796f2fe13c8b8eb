"""`Recovery`: the live tables in memory, rebuilt from the store.

A table is loaded on first use (`live`): its seats, then its match and hand replayed
from the log, finishing whatever a crash cut short between two writes. `recover` runs
at start-up (undelivered announcements first, overdue deadlines deferred, every
deadline scheduled, broken tables mended now); `warm` replays the rest in the
background; `reload` rebuilds a table the store disagreed with; `drop` forgets one that
is over. Each person's language is loaded with their table.

What a rebuild reads comes in one `TableLoad` (`Rebuilds.load`): a dozen
statements for a whole batch of tables (an eager `recover` reads every live table at
once) instead of a dozen per table. A live hand resumes from its newest state snapshot
and the actions after it when the snapshot checks out against the log (snapshots.py),
else its whole log is replayed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Iterator
from typing import TYPE_CHECKING

from bot.service import errors as E
from bot.service import fairness
from bot.service.errors import Refused
from bot.service.fairness import parse_wall
from bot.service.live import (
    LiveHand,
    LiveTable,
    Pending,
    computers_of,
    deadline_rows,
    empty_seats,
    match_totals,
    options_of,
    step_of,
)
from bot.service.moves import outcome
from bot.service.part import Part
from bot.service.results import RecoveryReport
from bot.service.scheduler import Wake
from bot.service.snapshots import UnusableSnapshot, resume, snapshot_of
from bot.store import (
    Conflict,
    DeadlineRow,
    HandLog,
    HandRow,
    NewSnapshot,
    NotFound,
    OwedDm,
    StaleStatus,
    TableLoad,
    TableRow,
)
from engine.game import Action, HandState, Phase, deciding_seats, replay
from engine.match import HandSetup, MatchState, finish_hand, new_match
from engine.rules.common import SEATS, TableOptions

if TYPE_CHECKING:
    from bot.service.service import TableService

log = logging.getLogger(__name__)

WARM_BATCH = 50
"""Tables `warm` reads at once: a first use of one of them waits for its batch (a few
tens of milliseconds), and the reads are a dozen statements a batch, not a table."""


class Recovery(Part):
    """The live tables: loaded on first use, rebuilt after a restart."""

    def __init__(self, service: TableService) -> None:
        super().__init__(service)
        self.loading: dict[int, asyncio.Lock] = {}
        """A lock per table being loaded, so two first uses load it once."""
        self.snapshot_every = service.snapshot_every
        self.use_snapshots = service.use_snapshots
        self.resumed = 0
        """Hands rebuilt from a snapshot (the others replayed their whole log)."""
        self.all_were_down = False
        """Set by `recover`: no other process was alive (always so for one bot)."""

    async def recover(self, *, eager: bool = False) -> RecoveryReport:
        """Bring every live table back after a start-up.

        Deadlines that passed while the bot was down move to now + grace (a person's) or
        now + ``computer_pause`` (a computer's, an away seat's, a standing choice's:
        grace is for people) — in shared mode only when no other process was seen
        alive lately (`Claims.alone`); every deadline is scheduled again. Tables that need work
        at once (playing but with no deadline: a crash between two writes) are rebuilt
        now; the others on first use (a command, a deadline) or by `warm`, so the bot
        serves again in milliseconds even with a thousand tables. With ``eager`` every
        live table is replayed now.
        """
        now = self.clock.now()
        await self.announcer.redeliver()
        # shared mode: another process alive may be serving these deadlines right now,
        # so nothing is deferred; with none alive, all were down: the grace is owed
        down = not self.service.shared or await self.claims.alone()
        if self.service.shared:
            await self.claims.beat()  # alive from now on, to the processes starting next
        deferred = 0 if not down else await self.store.deadlines.defer_overdue(
            now + self.service.grace, computer_until=now + self.service.computer_pause)
        tables = await self.store.lobby.live_tables()
        live_ids = {t.id for t in tables}
        rows = [r for r in await self.store.deadlines.all() if r.table_id in live_ids]
        waiting = {r.table_id for r in rows}
        todo = [t.id for t in tables if eager or (t.status == "playing"
                                                  and t.id not in waiting)]
        rebuilding = set(todo)
        for r in rows:
            if r.table_id in rebuilding:
                continue  # its rebuild schedules what still stands
            self.scheduler.push(Wake(r.due_at, r.table_id, r.hand_id, r.seat, r.seq))
            if r.kind != "computer" and r.reminded_at is None:
                self.scheduler.push(Wake(r.half_at, r.table_id, r.hand_id, r.seat, r.seq,
                                         "remind"))
        failed = await self._rebuild_batch(todo)
        self.all_were_down = down
        return RecoveryReport(len(tables), len(todo) - len(failed), len(rows), deferred,
                              tuple(failed))

    async def resend_dms(self) -> int:
        """Start-up, after `recover`: the DMs a crash left unsent (`resend`), when this
        process is the one to send them: always for one bot; in shared mode only when
        every process was down (the dead processes' rows are removed first, so nobody
        takes them over again); with another alive, the dead one's DMs come from the
        survivor that takes it over (`Claims.take_over`)."""
        if not self.all_were_down:
            return 0
        if self.service.shared:
            await self.claims.bury()
        return await self.resend()

    async def resend(self, *, set_before: float | None = None) -> int:
        """DM again each pending decision whose DM a crash lost: the store knows the
        step each seat's DM shows (`Presenter.owed_dms`), so a table whose players were all
        told is not touched, nor a seat whose DM is current. Run by `resend_dms` (after a
        crash of the one bot, or of every process) and, in shared mode, by the survivor
        that takes a dead process over (`Claims.take_over`; ``set_before``: decisions set
        while it may still have been writing). How many DMs were handed over."""
        by_table: dict[int, list[OwedDm]] = {}
        for owed in await self.store.presenter.owed_dms(set_before=set_before):
            by_table.setdefault(owed.table_id, []).append(owed)
        sent = 0
        for table_id, owed_here in by_table.items():
            try:
                async with self.locked(table_id) as live:  # the table as it is now
                    sent += await self.announcer.resend(live, owed_here)
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
        todo = [row.id for row in await self.store.lobby.live_tables() if row.id not in self.tables]
        rebuilt = 0
        for start in range(0, len(todo), WARM_BATCH):
            batch = todo[start:start + WARM_BATCH]
            fresh = [t for t in batch if t not in self.tables]
            failed = set(await self._rebuild_batch(fresh))
            rebuilt += sum(1 for t in fresh if t in self.tables and t not in failed)
            await asyncio.sleep(0)  # commands go first between batches
        return rebuilt

    async def _rebuild_batch(self, table_ids: list[int]) -> list[int]:
        """Rebuild these tables from one batch of reads; return those that failed.

        Each table's loading lock is held from before the read until the table is in
        memory: a first use meanwhile waits, then finds it, and never loads (or changes,
        or ends) a table between the batch's read and its rebuild."""
        held: dict[int, asyncio.Lock] = {}
        failed = []
        try:
            for table_id in table_ids:
                if table_id not in self.tables and table_id not in held:
                    lock = self.loading.setdefault(table_id, asyncio.Lock())
                    await lock.acquire()
                    held[table_id] = lock
            loads = await self.store.rebuilds.load(held, snapshots=self.use_snapshots)
            for table_id in list(held):
                try:
                    if table_id not in self.tables:
                        await self.rebuild(table_id, loads.pop(table_id, None))
                except Exception:
                    log.exception("table %s could not be rebuilt", table_id)
                    failed.append(table_id)
                finally:
                    held.pop(table_id).release()
                    self.loading.pop(table_id, None)
        finally:
            for lock in held.values():
                lock.release()
        return failed

    async def live(self, table_id: int) -> LiveTable:
        """The live table, rebuilt from the store on first use."""
        live = self.tables.get(table_id)
        if live is not None:
            return live
        lock = self.loading.setdefault(table_id, asyncio.Lock())
        async with lock:
            live = self.tables.get(table_id)
            if live is None:
                live = await self.rebuild(table_id)
        self.loading.pop(table_id, None)
        if live is None:
            row = await self.store.lobby.get_table(table_id)
            if row is not None and row.status == "cancelled":
                raise Refused(E.CANCELLED, "this table was cancelled")
            if row is not None:
                raise Refused(E.NOT_PLAYING, f"this table is {row.status}")
            raise Refused(E.NO_TABLE, "there is no such table")
        return live

    async def rebuild(self, table_id: int, load: TableLoad | None = None, *,
                      into: LiveTable | None = None) -> LiveTable | None:
        """The table rebuilt from the store (None: it is not live). ``into``: rebuild
        that live table in place, its lock held by the caller (`reload`)."""
        if load is None:
            load = (await self.store.rebuilds.load([table_id],
                                                   snapshots=self.use_snapshots)).get(table_id)
        if load is None or not load.table.is_live:
            return None
        row = load.table
        seats = empty_seats()
        for s in load.seats:
            seats[s.seat] = s
        if into is None:
            live = LiveTable(row, seats, version=row.version)
        else:
            live = into
            live.reset(row, seats)
            # shared mode: the command's bumps now count from the counter just read
            self.store.rebase_bump(table_id, row.version)
        self.tables[table_id] = live
        for user, locale in load.locales.items():
            self.locales.setdefault(user, locale)  # what this process heard since wins
        if row.status == "playing":
            if into is not None:  # the caller holds the lock
                await self._rebuild_match(live, load)
            else:
                async with live.lock:
                    await self._rebuild_match(live, load)
        return self.tables.get(table_id)

    async def _rebuild_match(self, live: LiveTable, load: TableLoad) -> None:
        """Rebuild the match and hand from the log, finishing whatever a crash cut short
        between two writes (a match without its first hand, a hand ended without the
        next one started, a deal that ended at once).

        What it judges was read in one snapshot (`Rebuilds.load`), and the service
        writes a start (status, match, first hand) and a hand's end with the next deal
        each in one transaction: a table "playing" with no match, or a match between two
        hands, is what a crash of an older version left, never a live process's change
        halfway (shared mode). A mend racing another process's mend of it loses
        (`Conflict`) and takes the table as that one stored it."""
        match_row = load.match
        options = options_of(live.row)
        hands = list(load.hands)
        if match_row is None:
            if load.matches_played:  # the last match ended: so did the table
                await self._close_finished(live)
                return
            try:
                match_row = await self.store.matches.create(
                    live.id, first_dealer=fairness.first_dealer(), at=self.clock.now())
            except Conflict:  # another process mended it first: the table as it is now
                await self.reload(live)
                return
            hands = []
        live.match_id = match_row.id
        if not hands:
            live.match = new_match(live.row.rules, options, match_row.first_dealer,
                                   computers_of(live))
            await self.moves.start_hand(live)
            return
        last = hands[-1]
        settled = [s for s in load.settlements if s.hand_id != last.id]
        wins = [0] * SEATS
        for s in settled:
            wins[s.seat] += 1 if s.value > 0 and s.amount > 0 else 0
        live.match = MatchState(
            live.row.rules, options, dealer=last.dealer, hands_played=last.number - 1,
            streak=last.streak, huangfan=last.huangfan,
            totals=match_totals(settled, load.penalties),
            wins=tuple(wins), computer=computers_of(live),
            current=HandSetup(last.number, last.dealer, last.dice, last.streak,
                              last.huangfan > 0))
        if load.log is not None and load.log.hand_id == last.id:
            state = await self.hand_state(live.row, options, last, load.log)
        else:  # an ended hand (the next one not dealt): its whole log
            state = await self.replay(live.row, options, last)
        live.hand = LiveHand(last, state)
        if last.status == "ended":
            live.match = finish_hand(live.match, outcome(state))
            live.hand = None
            await self.moves.start_hand(live)
        elif state.phase is Phase.ENDED:
            await self.moves.end_hand(live, state, (), None)
        else:
            await self._restore_deadlines(live, load.deadlines)

    async def hand_state(self, row: TableRow, options: TableOptions, hand: HandRow,
                         hand_log: HandLog) -> HandState:
        """A live hand's state: from its snapshot when that checks out against the log
        (snapshots.py), else the replay of its whole log."""
        if hand_log.snapshot is not None:
            try:
                state = resume(row.rules, options, hand, hand_log)
            except UnusableSnapshot as exc:
                log.warning("hand %s: snapshot at action %s not used (%s); replaying the "
                             "log", hand.id, hand_log.snapshot.seq, exc)
            else:
                self.resumed += 1
                return state
            return await self.replay(row, options, hand)
        actions = [Action.from_json(a.payload) for a in hand_log.actions]
        return replay(row.rules, options, parse_wall(hand.wall), hand.dice, hand.dealer,
                      actions, streak=hand.streak, huangfan=hand.huangfan > 0)

    def snapshot_of(self, state: HandState) -> NewSnapshot | None:
        """The snapshot to write with the action that reached ``state``, if one is due."""
        return snapshot_of(state, self.snapshot_every)

    async def replay(self, row: TableRow, options: TableOptions, hand: HandRow) -> HandState:
        actions = [Action.from_json(a.payload) for a in await self.store.log.actions(hand.id)]
        return replay(row.rules, options, parse_wall(hand.wall), hand.dice, hand.dealer,
                      actions, streak=hand.streak, huangfan=hand.huangfan > 0)

    async def _restore_deadlines(self, live: LiveTable, stored: tuple[DeadlineRow, ...]
                                 ) -> None:
        """Take the stored deadlines that still fit the replayed state; make new ones
        for any decision that has none."""
        assert live.hand is not None
        state = live.hand.state
        rows = {r.seat: r for r in stored}
        now = self.clock.now()
        pending: dict[int, Pending] = {}
        fresh = False
        for seat in deciding_seats(state):
            step = step_of(state, seat)
            assert step is not None
            r = rows.get(seat)
            if r is not None and r.seq == step:
                pending[seat] = Pending(seat, step, r.kind, r.set_at, r.due_at,
                                        r.reminded_at is not None)
            else:
                pending[seat] = self.timers.new_pending(live, state, seat, step, now)
                fresh = True
        live.pending = pending
        if fresh:
            await self.store.deadlines.replace(live.hand.row.id, deadline_rows(pending))
        self.timers.schedule(live, pending.values())

    async def _close_finished(self, live: LiveTable) -> None:
        """Mend a table whose last match ended in a database written before the last
        hand finished its table in its own transaction."""
        with contextlib.suppress(StaleStatus):
            live.row = await self.store.lobby.set_status(live.id, "finished",
                                                         expected="playing")
        self.drop(live)

    def drop(self, live: LiveTable) -> None:
        """The table is over: out of memory and out of the scheduler."""
        self.tables.pop(live.id, None)
        self.scheduler.forget(live.id)

    async def reload(self, live: LiveTable) -> None:
        """The store disagreed with memory (another writer): rebuild from the log, in
        place (the caller holds the table's lock, and whoever waits for it finds the
        rebuilt table); a table no longer live, or that fails to load, is dropped."""
        self.scheduler.forget(live.id)
        live.pending = {}
        try:
            fresh = await self.rebuild(live.id, into=live)
        except Exception:
            log.exception("table %s could not be reloaded", live.id)
            fresh = None
        if fresh is None:
            self.drop(live)
            live.version = None

    # ---- shared mode: several processes on one database --------------------------------

    @contextlib.asynccontextmanager
    async def locked(self, table_id: int, *, trusting: bool = False
                     ) -> AsyncIterator[LiveTable]:
        """The live table under its lock, for a command, query or timer.

        In shared mode (several processes on one database) memory may be stale: under
        the lock the table's change counter is read, and the table reloaded if another
        process moved it since; every write transaction made in the block adds one to
        the counter as its last statement (`Store.bumping`: no transaction of its own),
        and memory stays trusted only if each bump was exactly one more than the last
        (nobody else wrote meanwhile; else the next command reloads). A refusal changes
        nothing; a query that writes bumps too. Off (one process) this is the lookup
        and the lock, nothing more.

        ``trusting`` (a click): when memory is believed current, the counter is not
        read first; the command's first write is a compare-and-set on it instead
        (`Store.bumping` with ``expect``), so a table another process moved meanwhile
        makes that write fail (`StaleTable`: reload, judge again) and a refusal is
        checked with `refresh` before it stands."""
        live = await self.live(table_id)
        async with live.lock:
            if not self.service.shared:
                yield live
                return
            trust = trusting and live.version is not None
            with self.bumping(live, expect=trust):  # a reload that mends bumps too
                if not trust:
                    live = await self._fresh(live)
                yield live

    async def refresh(self, live: LiveTable) -> bool:
        """Shared mode, under the table's lock, memory not read fresh (``trusting``):
        reload the table if another process moved it; whether it did."""
        if not self.service.shared:
            return False
        try:
            version = await self.store.processes.table_version(live.id)
        except NotFound:
            version = None
        if version is not None and version == live.version:
            return False
        await self._fresh(live)
        return True

    @contextlib.contextmanager
    def bumping(self, live: LiveTable, *, expect: bool = False) -> Iterator[None]:
        """Shared mode: the block's writes bump the table's counter in their own
        transactions (`Store.bumping`); afterwards memory keeps the counter only if
        nobody else wrote meanwhile. A refusal changes nothing; any other exception
        forgets the counter (half done? the next command reloads)."""
        with self.store.bumping(live.id, live.version, expect=expect) as bump:
            try:
                yield
            except Refused:
                live.version = bump.known
                raise
            except BaseException:
                live.version = None
                raise
        # dropped meanwhile (over, or failed to reload): nothing to trust
        live.version = bump.known if self.tables.get(live.id) is live else None

    async def _fresh(self, live: LiveTable) -> LiveTable:
        try:
            version = await self.store.processes.table_version(live.id)
        except NotFound:
            version = None
        if version is None or version != live.version:
            await self.reload(live)
            if self.tables.get(live.id) is not live:  # over meanwhile: say how
                await self.live(live.id)
                raise Refused(E.NO_TABLE, "there is no such table")  # pragma: no cover
        return live
