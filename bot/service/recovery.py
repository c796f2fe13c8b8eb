"""`Recovery`: the live tables in memory, rebuilt from the store.

A table is loaded on first use (`live`): its seats, then its match and hand replayed
from the log, finishing whatever a crash cut short between two writes. `recover` runs
at start-up (undelivered announcements first, overdue deadlines deferred, every
deadline scheduled, broken tables mended now); `warm` replays the rest in the
background; `reload` rebuilds a table the store disagreed with; `drop` forgets one that
is over. Each person's language is loaded with their table.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from fractions import Fraction
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
    options_of,
    step_of,
)
from bot.service.moves import outcome
from bot.service.part import Part
from bot.service.results import RecoveryReport
from bot.service.scheduler import Wake
from bot.store import HandRow, StaleStatus, TableRow
from engine.game import Action, HandState, Phase, deciding_seats, replay
from engine.match import HandSetup, MatchState, finish_hand, new_match
from engine.rules.common import SEATS, TableOptions

if TYPE_CHECKING:
    from bot.service.service import TableService

log = logging.getLogger(__name__)


class Recovery(Part):
    """The live tables: loaded on first use, rebuilt after a restart."""

    def __init__(self, service: TableService) -> None:
        super().__init__(service)
        self.loading: dict[int, asyncio.Lock] = {}
        """A lock per table being loaded, so two first uses load it once."""

    async def recover(self, *, eager: bool = False) -> RecoveryReport:
        """Bring every live table back after a start-up.

        Deadlines that passed while the bot was down move to now + grace (a person's) or
        now + ``computer_pause`` (a computer's, an away seat's, a standing choice's:
        grace is for people); every deadline is scheduled again. Tables that need work
        at once (playing but with no deadline: a crash between two writes) are rebuilt
        now; the others on first use (a command, a deadline) or by `warm`, so the bot
        serves again in milliseconds even with a thousand tables. With ``eager`` every
        live table is replayed now.
        """
        now = self.clock.now()
        await self.announcer.redeliver()
        deferred = await self.store.defer_overdue(now + self.service.grace,
                                                  computer_until=now + self.service.computer_pause)
        tables = await self.store.live_tables()
        live_ids = {t.id for t in tables}
        rows = [r for r in await self.store.deadlines() if r.table_id in live_ids]
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
        failed = []
        for table_id in todo:
            try:
                await self.live(table_id)
            except Refused:
                pass  # mended and over: its last hand had ended the match (no longer live)
            except Exception:
                log.exception("table %s could not be rebuilt", table_id)
                failed.append(table_id)
        return RecoveryReport(len(tables), len(todo) - len(failed), len(rows), deferred,
                              tuple(failed))

    async def warm(self) -> int:
        """Rebuild, one after another, the live tables a lazy `recover` left for later
        (run it as a background task); return how many were rebuilt."""
        rebuilt = 0
        for row in await self.store.live_tables():
            if row.id in self.tables:
                continue
            try:
                await self.live(row.id)
                rebuilt += 1
            except Refused:
                pass
            except Exception:
                log.exception("table %s could not be rebuilt", row.id)
            await asyncio.sleep(0)
        return rebuilt

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
            row = await self.store.get_table(table_id)
            if row is not None:
                raise Refused(E.NOT_PLAYING, f"this table is {row.status}")
            raise Refused(E.NO_TABLE, "there is no such table")
        return live

    async def rebuild(self, table_id: int) -> LiveTable | None:
        row = await self.store.get_table(table_id)
        if row is None or not row.is_live:
            return None
        seats = empty_seats()
        for s in await self.store.seats(table_id):
            seats[s.seat] = s
        live = LiveTable(row, seats)
        self.tables[table_id] = live
        await self._load_locales(live)
        if row.status == "playing":
            async with live.lock:
                await self._rebuild_match(live)
        return self.tables.get(table_id)

    async def _rebuild_match(self, live: LiveTable) -> None:
        """Rebuild the match and hand from the log, finishing whatever a crash cut short
        between two writes (a match without its first hand, a hand ended without the
        next one started, a deal that ended at once)."""
        match_row = await self.store.live_match(live.id)
        options = options_of(live.row)
        if match_row is None:
            if await self.store.matches(live.id):  # the last match ended: so did the table
                await self._close_finished(live)
                return
            match_row = await self.store.create_match(live.id, first_dealer=fairness.first_dealer(),
                                                      at=self.clock.now())
        live.match_id = match_row.id
        hands = await self.store.hands(match_row.id)
        if not hands:
            live.match = new_match(live.row.rules, options, match_row.first_dealer,
                                   computers_of(live))
            await self.moves.start_hand(live)
            return
        last = hands[-1]
        settled = await self.store.match_settlements(match_row.id)
        totals = [Fraction(0)] * SEATS
        wins = [0] * SEATS
        for s in settled:
            if s.hand_id != last.id:
                totals[s.seat] += s.amount
                wins[s.seat] += 1 if s.value > 0 and s.amount > 0 else 0
        for seat, amount in (await self.store.penalty_totals(match_row.id)).items():
            totals[seat] += amount
        live.match = MatchState(
            live.row.rules, options, dealer=last.dealer, hands_played=last.number - 1,
            streak=last.streak, huangfan=last.huangfan, totals=tuple(totals),
            wins=tuple(wins), computer=computers_of(live),
            current=HandSetup(last.number, last.dealer, last.dice, last.streak,
                              last.huangfan > 0))
        state = await self.replay(live.row, options, last)
        live.hand = LiveHand(last, state)
        if last.status == "ended":
            live.match = finish_hand(live.match, outcome(state))
            live.hand = None
            await self.moves.start_hand(live)
        elif state.phase is Phase.ENDED:
            await self.moves.end_hand(live, state, (), None)
        else:
            await self._restore_deadlines(live)

    async def _load_locales(self, live: LiveTable) -> None:
        """The languages of the table's people, remembered from before a restart."""
        users = [s.user_id for s in live.seats if s is not None and s.user_id is not None
                 and s.user_id not in self.locales]
        for user, locale in (await self.store.user_locales(users)).items():
            self.locales.setdefault(user, locale)

    async def replay(self, row: TableRow, options: TableOptions, hand: HandRow) -> HandState:
        actions = [Action.from_json(a.payload) for a in await self.store.actions(hand.id)]
        return replay(row.rules, options, parse_wall(hand.wall), hand.dice, hand.dealer,
                      actions, streak=hand.streak, huangfan=hand.huangfan > 0)

    async def _restore_deadlines(self, live: LiveTable) -> None:
        """Take the stored deadlines that still fit the replayed state; make new ones
        for any decision that has none."""
        assert live.hand is not None
        state = live.hand.state
        rows = {r.seat: r for r in await self.store.deadlines(live.hand.row.id)}
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
            await self.store.replace_deadlines(live.hand.row.id, deadline_rows(pending))
        self.timers.schedule(live, pending.values())

    async def _close_finished(self, live: LiveTable) -> None:
        """Mend a table whose last match ended in a database written before the last
        hand finished its table in its own transaction."""
        with contextlib.suppress(StaleStatus):
            live.row = await self.store.set_table_status(live.id, "finished",
                                                         expected="playing")
        self.drop(live)

    def drop(self, live: LiveTable) -> None:
        """The table is over: out of memory and out of the scheduler."""
        self.tables.pop(live.id, None)
        self.scheduler.forget(live.id)

    async def reload(self, live: LiveTable) -> None:
        """The store disagreed with memory (another writer): rebuild from the log."""
        self.drop(live)
        live.pending = {}
        try:
            await self.rebuild(live.id)
        except Exception:
            log.exception("table %s could not be reloaded", live.id)
