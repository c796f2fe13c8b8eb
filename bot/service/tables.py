"""`LiveTables`: the tables in memory, each under its own lock.

A table is loaded on first use (`get`): its seats, then its match and hand replayed
from the log, finishing whatever a crash cut short between two writes (`Moves` deals
or settles what is missing). `locked` is how every command, query and timer reaches a
table: under its lock, made fresh and its writes fenced as the process model says
(process.py). `reload` rebuilds a table the store disagreed with, in place; a table
that is over leaves memory when its lock is released (`settle`). Each person's
language and settings (quiet hours, leave) are learnt with their table.

An idle table costs nothing (issue 32): one nobody used for ``idle_after`` seconds (10
minutes by default) leaves memory (`unload_idle`, every few seconds from `run`, and from
`TableService.run_due`), with its people when no other table in memory seats them; its
moments after the last one the scheduler read leave the scheduler too
(`Scheduler.unload`). Nothing is written then: every change of a table was committed
when it was made, so a table unloaded is exactly what a restart would find, and a
click, a command or a deadline on it loads it again (`get`). A table is never unloaded
while its lock is held or it is loading, nor while it holds news for a seat's next DM.

What a rebuild reads comes in one `TableLoad` (`Rebuilds.load`): a dozen
statements for a whole batch of tables (`load_batch`: an eager `recover` reads every
live table at once) instead of a dozen per table. A live hand resumes from its newest
state snapshot and the actions after it when the snapshot checks out against the log
(snapshots.py), else its whole log is replayed.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import math
from collections.abc import AsyncIterator, Callable, Iterable, Sequence

from bot.service import errors as E
from bot.service import fairness
from bot.service.clock import Clock
from bot.service.errors import Refused
from bot.service.languages import Languages
from bot.service.live import (
    LiveHand,
    LiveTable,
    Pending,
    answers_in,
    computers_of,
    deadline_rows,
    empty_seats,
    match_totals,
    step_of,
)
from bot.service.moves import Moves, outcome
from bot.service.notices import NextDiscard
from bot.service.people import People
from bot.service.process import ProcessModel
from bot.service.scheduler import Scheduler
from bot.service.snapshots import UnusableSnapshot, engine_version, replay_hand, resume
from bot.service.timers import Timers
from bot.store import (
    Conflict,
    DeadlineRow,
    HandLog,
    HandRow,
    StaleStatus,
    Store,
    TableLoad,
    TableRow,
)
from engine import rules as rulesets
from engine.game import (
    Action,
    HandState,
    Phase,
    apply,
    deciding_seats,
    legal_actions,
    new_hand,
    replay,
)
from engine.game.snapshot import decode, encode
from engine.match import HandSetup, MatchState, finish_hand, new_match
from engine.rules.common import SEATS, TableOptions
from engine.tiles import tile_from_notation

log = logging.getLogger(__name__)

IDLE_AFTER = 600.0
"""Seconds a table nobody uses stays in memory (``IDLE_AFTER``)."""
IDLE_CHECK = 60.0
"""Seconds between two looks for idle tables, at most (a quarter of ``idle_after`` when
that is shorter)."""


WARM_MOVES = 8
"""Moves of each rule set's sample hand `warm_up` plays."""


@functools.cache
def warm_up() -> None:
    """What the first click on a cold table would pay alone, paid once at start-up (by
    `LiveTables.run`, in the background) instead: the engine's fingerprint, which a
    snapshot is checked against (reading every file of ``engine/``), and each rule
    set's first deal, moves and snapshot (the engine's tables, made on first use). The
    first click was 3–4 times the next ones' (bench/coldclick.py)."""
    engine_version()
    for ruleset in rulesets.registered():
        deal = fairness.shuffle(ruleset.has_flowers)
        state, _ = new_hand(ruleset.name, None, deal.wall, 0, (3, 4))
        for _ in range(WARM_MOVES):
            seats = deciding_seats(state)
            if state.phase is Phase.ENDED or not seats:
                break
            state, _ = apply(state, legal_actions(state, seats[0])[-1])
        decode(encode(state), ruleset.name, None, deal.wall, 0, (3, 4))


class LiveTables:
    """The live tables: loaded on first use, locked, reloaded, dropped when over."""

    def __init__(self, store: Store, clock: Clock, scheduler: Scheduler,
                 process: ProcessModel, moves: Moves, timers: Timers, languages: Languages,
                 people: People, *, use_snapshots: bool = True,
                 idle_after: float = IDLE_AFTER) -> None:
        """``idle_after``: seconds a table nobody uses stays in memory (inf: forever)."""
        self._store = store
        self._people = people
        self._clock = clock
        self._scheduler = scheduler
        self._process = process
        self._moves = moves
        self._timers = timers
        self._languages = languages
        self.use_snapshots = use_snapshots
        self.loaded: dict[int, LiveTable] = {}
        """The live tables in memory, by id."""
        self.loading: dict[int, asyncio.Lock] = {}
        """A lock per table being loaded, so two first uses load it once."""
        self.resumed = 0
        """Hands rebuilt from a snapshot (the others replayed their whole log)."""
        self.idle_after = idle_after
        self.unloaded = 0
        """Tables that left memory idle (tests and the bench)."""
        self.on_unload: Callable[[Sequence[int]], None] | None = None
        """Called after each look for idle tables with those that left memory (maybe
        none): the adapter lets them go too (`DiscordNotifier.unloaded`)."""
        self._running = False
        self._stopped = asyncio.Event()

    def add(self, live: LiveTable) -> None:
        """A table just created (its lobby)."""
        self.loaded[live.id] = live
        live.used_at = self._clock.now()

    def touch(self, live: LiveTable) -> None:
        """The table is used now: it goes last in `loaded`, which is kept in the order of
        use (the idle ones first)."""
        live.used_at = self._clock.now()
        if self.loaded.get(live.id) is live:
            del self.loaded[live.id]
            self.loaded[live.id] = live

    async def get(self, table_id: int) -> LiveTable:
        """The live table, rebuilt from the store on first use."""
        live = self.loaded.get(table_id)
        if live is not None:
            self.touch(live)
            return live
        lock = self.loading.setdefault(table_id, asyncio.Lock())
        async with lock:
            live = self.loaded.get(table_id)
            if live is None:
                live = await self.rebuild(table_id)
        self.loading.pop(table_id, None)
        if live is None:
            row = await self._store.lobby.get_table(table_id)
            if row is not None and row.status == "cancelled":
                raise Refused(E.CANCELLED, "this table was cancelled")
            if row is not None:
                raise Refused(E.NOT_PLAYING, f"this table is {row.status}")
            raise Refused(E.NO_TABLE, "there is no such table")
        return live

    @contextlib.asynccontextmanager
    async def locked(self, table_id: int, *, trusting: bool = False
                     ) -> AsyncIterator[LiveTable]:
        """The live table under its lock, for a command, query or timer: made fresh and
        its writes fenced as the process model says (`ProcessModel.fenced`; one
        process: nothing more). ``trusting`` (a click): memory believed current is not
        read fresh first (see `SharedProcess`). Before the lock is released, a table a
        write found stale is reloaded and one that is over leaves memory (`settle`)."""
        live = await self.get(table_id)
        async with live.lock, self._process.fenced(self, live, trusting=trusting):
            try:
                await self._people.know(s.user_id for s in live.seats if s is not None)
                yield live
            finally:
                live.used_at = self._clock.now()
                await self.settle(live)

    def unload_idle(self) -> int:
        """The tables nobody used for ``idle_after`` seconds leave memory, and the
        people no table in memory seats any more; how many tables left. Nothing is
        written (module docstring)."""
        cutoff = self._clock.now() - self.idle_after
        idle = []
        for live in self.loaded.values():  # in the order of use: the idle ones first
            if live.used_at > cutoff:
                break
            if not live.lock.locked() and live.id not in self.loading and not live.stale \
                    and not live.held_news and live.fence is None:
                idle.append(live)
        if not idle:
            if self.on_unload is not None:
                self.on_unload(())
            return 0
        users: set[int] = set()
        for live in idle:
            del self.loaded[live.id]
            self._scheduler.unload(live.id)
            users.update(s.user_id for s in live.seats if s is not None and s.user_id)
        users.difference_update(s.user_id for live in self.loaded.values()
                                for s in live.seats if s is not None)
        self._people.forget(users)
        self._languages.forget(users)
        self.unloaded += len(idle)
        if self.on_unload is not None:
            self.on_unload([live.id for live in idle])
        log.debug("%s idle table(s) left memory, %s stay", len(idle), len(self.loaded))
        return len(idle)

    async def run(self) -> None:
        """Forever: unload the idle tables every `IDLE_CHECK` seconds (or a quarter of
        ``idle_after``, when shorter); first, `warm_up`."""
        try:
            warm_up()
        except Exception:  # only ever a first click's speed: never worth the loop
            log.exception("the engine's warm-up failed")
        if math.isinf(self.idle_after):
            return
        every = max(0.05, min(IDLE_CHECK, self.idle_after / 4))
        self._running = True
        self._stopped.clear()
        while self._running:
            await self._clock.sleep_until(self._clock.now() + every, self._stopped)
            if self._running:
                self.unload_idle()

    def stop(self) -> None:
        self._running = False
        self._stopped.set()

    async def read(self, table_id: int) -> LiveTable:
        """The live table a query reads (`ProcessModel.read`)."""
        return await self._process.read(self, table_id)

    async def settle(self, live: LiveTable) -> None:
        """Under the table's lock: reload it if a write found the store disagreeing with
        memory (``live.stale``); drop it from memory if it is over."""
        if live.stale:
            live.stale = False
            await self.reload(live)
        elif not live.row.is_live and self.loaded.get(live.id) is live:
            self.drop(live)

    def drop(self, live: LiveTable) -> None:
        """The table is over: out of memory and out of the scheduler."""
        self.loaded.pop(live.id, None)
        self._scheduler.forget(live.id)

    async def reload(self, live: LiveTable) -> None:
        """The store disagreed with memory (another writer): rebuild from the log, in
        place (the caller holds the table's lock, and whoever waits for it finds the
        rebuilt table); a table no longer live, or that fails to load, is dropped."""
        self._scheduler.forget(live.id)
        live.pending = {}
        try:
            fresh = await self.rebuild(live.id, into=live)
        except Exception:
            log.exception("table %s could not be reloaded", live.id)
            fresh = None
        if fresh is None:
            self.drop(live)
            live.version = None

    async def load_batch(self, table_ids: Iterable[int]) -> list[int]:
        """Rebuild these tables from one batch of reads; return those that failed.

        Each table's loading lock is held from before the read until the table is in
        memory: a first use meanwhile waits, then finds it, and never loads (or changes,
        or ends) a table between the batch's read and its rebuild."""
        held: dict[int, asyncio.Lock] = {}
        failed = []
        try:
            for table_id in table_ids:
                if table_id not in self.loaded and table_id not in held:
                    lock = self.loading.setdefault(table_id, asyncio.Lock())
                    await lock.acquire()
                    held[table_id] = lock
            loads = await self._store.rebuilds.load(held, snapshots=self.use_snapshots)
            for table_id in list(held):
                try:
                    if table_id not in self.loaded:
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

    async def rebuild(self, table_id: int, load: TableLoad | None = None, *,
                      into: LiveTable | None = None) -> LiveTable | None:
        """The table rebuilt from the store (None: it is not live). ``into``: rebuild
        that live table in place, its lock held by the caller (`reload`)."""
        if load is None:
            load = (await self._store.rebuilds.load([table_id],
                                                    snapshots=self.use_snapshots)).get(table_id)
        if load is None or not load.table.is_live:
            return None
        row = load.table
        seats = empty_seats()
        for s in load.seats:
            seats[s.seat] = s
        if into is None:
            live = LiveTable(row, seats, version=row.version, used_at=self._clock.now())
        else:
            live = into
            live.reset(row, seats)
            if live.fence is not None:  # the block's bumps now count from the counter read
                live.fence.known = row.version
        self.loaded[table_id] = live
        self._languages.learn(load.locales)
        self._people.learn((s.user_id for s in load.seats if s.user_id is not None),
                           load.people)
        if row.status == "playing":
            if into is not None:  # the caller holds the lock
                await self._rebuild_match(live, load)
                await self.settle(live)
            else:
                async with live.lock:
                    await self._rebuild_match(live, load)
                    await self.settle(live)
        return self.loaded.get(table_id)

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
        options = live.options
        hands = list(load.hands)
        if match_row is None:
            if load.matches_played:  # the last match ended: so did the table
                await self._close_finished(live)
                return
            try:
                match_row = await self._store.matches.create(
                    live.id, first_dealer=fairness.first_dealer(), at=self._clock.now(),
                    fence=live.fence)
            except Conflict:  # another process mended it first: the table as it is now
                live.stale = True
                return
            hands = []
        live.match_id = match_row.id
        if not hands:
            live.match = new_match(live.row.rules, options, match_row.first_dealer,
                                   computers_of(live))
            await self._moves.start_hand(live)
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
            # the next move chains its log's digest from the one just read
            self._store.log.known(last.id, load.log.last_seq, load.log.last_digest)
        else:  # an ended hand (the next one not dealt): its whole log
            state = await replay_hand(self._store, live.row, options, last)
        live.hand = LiveHand(last, state, answers_in(load.claim_answers, last.id))
        if last.status == "ended":
            live.match = finish_hand(live.match, outcome(state))
            live.hand = None
            await self._moves.start_hand(live)
        elif state.phase is Phase.ENDED:
            await self._moves.end_hand(live, state, (), None)
        else:
            live.premoves = {seat: NextDiscard(tile_from_notation(tile),
                                               seat not in load.premoves_exact)
                             for seat, tile in load.premoves.items()}
            live.banks = dict(load.banks)  # the hand's time banks as its moves left them
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
            return await replay_hand(self._store, row, options, hand)
        actions = [Action.from_json(a.payload) for a in hand_log.actions]
        return replay(row.rules, options, fairness.parse_wall(hand.wall), hand.dice,
                      hand.dealer, actions, streak=hand.streak, huangfan=hand.huangfan > 0)

    async def _restore_deadlines(self, live: LiveTable, stored: tuple[DeadlineRow, ...]
                                 ) -> None:
        """Take the stored deadlines that still fit the replayed state; make new ones
        for any decision that has none."""
        assert live.hand is not None
        state = live.hand.state
        rows = {r.seat: r for r in stored}
        now = self._clock.now()
        pending: dict[int, Pending] = {}
        fresh = False
        for seat in deciding_seats(state):
            step = step_of(state, seat)
            assert step is not None
            r = rows.get(seat)
            if r is not None and r.seq == step:
                pending[seat] = Pending(seat, step, r.kind, r.set_at, r.due_at,
                                        r.reminded_at is not None, r.timer_at, r.warn_at,
                                        r.warned_at is not None)
            else:
                pending[seat] = self._timers.new_pending(live, state, seat, step, now)
                fresh = True
        live.pending = pending
        if fresh:
            await self._store.deadlines.replace(live.hand.row.id, deadline_rows(pending),
                                                fence=live.fence)
        self._timers.schedule(live, pending.values())

    async def _close_finished(self, live: LiveTable) -> None:
        """Mend a table whose last match ended in a database written before the last
        hand finished its table in its own transaction (it leaves memory: `settle`)."""
        with contextlib.suppress(StaleStatus):
            live.row = await self._store.lobby.set_status(live.id, "finished",
                                                          expected="playing", fence=live.fence)
        if live.row.is_live:  # someone else's status since: not this table's to keep
            self.drop(live)
