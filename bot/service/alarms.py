"""`Alarms`: what happens when a decision's moment comes.

`fire` checks that the moment still stands against the table's live state (a deadline
`recover` pushed may belong to a table that changed since) and that the person does not
rest now (quiet hours, leave: then nothing plays, the timer waits for them), then
reminds at half time
(the DM again, then the ping: `Announcer.remind`), warns when a quarter of the time is
left (`Announcer.warn`: once, marked in the store first) or plays the default, the
computer's move or a standing choice through `Moves.commit`, as any move is played.
The one process's `Scheduler`, or shared mode's `Claims`, hands it each moment.
"""

from __future__ import annotations

import logging
from dataclasses import replace

from bot.service import errors as E
from bot.service.announcements import Announcer
from bot.service.clock import Clock
from bot.service.errors import Refused
from bot.service.live import (
    AHEAD,
    AheadReason,
    LiveTable,
    Pending,
    advance_answer,
    answers_of,
    auto_reason,
    played_ahead,
    step_of,
    user_of,
)
from bot.service.moves import JUDGED, Moves
from bot.service.people import People
from bot.service.process import ProcessModel
from bot.service.scheduler import Wake
from bot.service.tables import LiveTables
from bot.service.timers import Timers
from bot.store import ActionSource, NotFound, Store
from engine.ai import choose_action
from engine.game import Action, ActionKind, timeout_action

log = logging.getLogger(__name__)


class Alarms:
    """A moment come: remind, or play the seat's move."""

    def __init__(self, store: Store, clock: Clock, tables: LiveTables, moves: Moves,
                 timers: Timers, announcer: Announcer, people: People,
                 process: ProcessModel) -> None:
        self._store = store
        self._timers = timers
        self._people = people
        self._clock = clock
        self._tables = tables
        self._moves = moves
        self._announcer = announcer
        self._process = process

    async def fire(self, wake: Wake) -> None:
        """A scheduled moment: check it still stands, then remind or play the default
        (timer), the computer's move, a standing choice or a claim answered in advance, as
        any move is played."""
        try:
            async with self._tables.locked(wake.table_id) as live:
                await self._fire(live, wake)
        except Refused:
            return  # the table is over (or was never there)

    async def _fire(self, live: LiveTable, wake: Wake) -> None:
        for judged in range(1, JUDGED + 1):
            hand = live.hand
            p = live.pending.get(wake.seat)
            if hand is None or hand.row.id != wake.hand_id or p is None \
                    or p.step != wake.step or step_of(hand.state, wake.seat) != p.step:
                return
            if p.kind != "computer" and await self._resting(live, p, wake):
                return
            if wake.what == "remind":
                await self._remind(live, p, wake)
                return
            if wake.what == "warn":
                await self._warn(live, p, wake)
                return
            if wake.when != p.due_at:
                return
            action, source, ahead = self._auto_action(live, p)
            try:
                await self._moves.commit(live, action, source, ahead=ahead)
                return
            except Refused as exc:
                if exc.code == E.RACED and judged < JUDGED and \
                        await self._process.judge_again(self._tables, live, exc):
                    continue  # another process moved the table (now reloaded): again
                # the kind only: a log must not hold a concealed tile
                log.warning("table %s: a %s %s was refused: %s", live.id, source,
                            action.kind.value, exc.code)
                return

    async def _resting(self, live: LiveTable, p: Pending, wake: Wake) -> bool:
        """A person's moment came while they rest (quiet hours, leave; for a claim
        window, while anyone at the table rests: `Timers.rest`): the timer plays nothing
        and waits for them to be back; a reminder is not sent (their quiet hours' end
        tells them what waits). True: handled so. Before a timer plays, the settings it
        depends on are read fresh (a change another process stored is honoured even if
        it never reached this table)."""
        now = self._clock.now()
        if user_of(live.seats[p.seat]) is None \
                or wake.when not in (p.due_at, p.half_at, p.warn_at):
            return False
        rows = None
        if wake.what == "due":
            users = [s.user_id for s in live.seats if s is not None and s.user_id is not None
                     and (p.kind == "claim" or s.seat == p.seat)]
            rows = {u: await self._people.fresh(u) for u in users}
        rest = self._timers.rest(live, p.seat, p.kind, rows)
        if rest is None or not rest.quiet_at(now):
            return False
        if wake.what == "remind":
            if p.reminds and wake.when == p.half_at:
                await self._mark_reminded(live, p)
            return True
        if wake.what == "warn":  # nor the warning: marked, so it never comes later
            if p.warns and wake.when == p.warn_at:
                await self._mark_warned(live, p)
            return True
        back = rest.quiet_until(now)
        assert back is not None
        await self._timers.postpone(live, p, back)
        return True

    async def _mark_reminded(self, live: LiveTable, p: Pending) -> bool:
        assert live.hand is not None
        try:
            await self._store.deadlines.mark_reminded(live.hand.row.id, p.seat,
                                                      self._clock.now(), fence=live.fence)
        except NotFound:
            return False
        live.pending[p.seat] = replace(p, reminded=True)
        return True

    async def _warn(self, live: LiveTable, p: Pending, wake: Wake) -> None:
        """A quarter of a person's time is left: one warning DM (never for a computer's
        or an automatic move, never twice: marked in the store before it goes)."""
        if not p.warns or wake.when != p.warn_at:
            return
        if await self._mark_warned(live, p):
            await self._announcer.warn(live, live.pending[p.seat])

    async def _mark_warned(self, live: LiveTable, p: Pending) -> bool:
        assert live.hand is not None
        try:
            await self._store.deadlines.mark_warned(live.hand.row.id, p.seat,
                                                    self._clock.now(), fence=live.fence)
        except NotFound:
            return False
        live.pending[p.seat] = replace(p, warned=True, reminded=True)
        return True

    async def _remind(self, live: LiveTable, p: Pending, wake: Wake) -> None:
        assert live.hand is not None
        if not p.reminds or wake.when != p.half_at:
            return
        if p.warns and p.warn_at is not None and self._clock.now() >= p.warn_at:
            # late (a restart): the warning's moment has come too, and says more
            await self._warn(live, p, wake._replace(when=p.warn_at, what="warn"))
            return
        if await self._mark_reminded(live, p):
            await self._announcer.remind(live, live.pending[p.seat])

    def _auto_action(self, live: LiveTable, p: Pending
                     ) -> tuple[Action, ActionSource, AheadReason | None]:
        """The move a moment plays, its source, and (a turn its person chose
        beforehand) why it is theirs."""
        assert live.hand is not None
        state = live.hand.state
        seat = p.seat
        if p.kind != "computer":
            return timeout_action(state, seat), "timeout", None
        seat_row = live.seats[seat]
        answers = answers_of(live, seat)
        premove = live.premoves.get(seat)
        reason = auto_reason(seat_row, state, seat, answers, premove)
        if reason == "always_win":
            return Action(ActionKind.WIN, seat), "computer", None
        if reason == "claim_answer" and seat_row is not None:
            # The person's own answer, given in advance: their move ("player": it
            # counts as theirs, as a click would), one the window offers now.
            answer = advance_answer(state, seat, seat_row.choices, answers)
            assert answer is not None
            return answer, "player", None
        if reason == "pass_claims":
            return Action(ActionKind.PASS, seat), "computer", None
        if reason in AHEAD and seat_row is not None:
            ahead = played_ahead(seat_row, state, seat, premove, answers)
            assert ahead is not None  # the same judgement as `auto_reason`'s
            # The person's own move, chosen beforehand: "player", as a click is (it
            # counts as theirs and ends a run of timeouts); never "computer".
            return ahead[1], "player", ahead[0]
        if reason == "away" and seat_row is not None \
                and seat_row.choices.discard_drawn_when_away:
            return timeout_action(state, seat), "computer", None
        return choose_action(state, seat, live.rng), "computer", None
