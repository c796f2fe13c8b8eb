"""`Timers`: each open decision's moment, and what happens when it comes.

`plan` gives the pending decisions after a move (a person's turn or claim timer, or a
computer's pause; a standing choice or an away seat: at once), `schedule` keeps only
those in the `Scheduler`, `replan` redoes them when a seat's auto-play changed. `fire`
checks a moment still stands, then reminds at half time (the DM again, then the
ping) or plays the default, the computer's move or a standing choice through
`Moves.commit`. `after_move` counts timeouts in a row: away (or, with ``away_leaves``,
leaving the match) after ``away_after``; a person's own move brings them back.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from dataclasses import replace
from fractions import Fraction

from bot.service import errors as E
from bot.service.commands import JUDGED
from bot.service.errors import Refused
from bot.service.live import LiveTable, Pending, auto_reason, deadline_rows, info_of, step_of
from bot.service.notices import AwayNotice, LobbyNotice
from bot.service.part import Part
from bot.service.scheduler import Wake
from bot.store import ActionSource, NotFound
from engine.ai import choose_action
from engine.game import Action, ActionKind, HandState, Phase, deciding_seats, timeout_action

log = logging.getLogger(__name__)


class Timers(Part):
    """Pending decisions: planned, scheduled, fired, reminded; away seats."""

    def plan(self, live: LiveTable, state: HandState, now: float,
             kept: Mapping[int, Pending] | None = None) -> dict[int, Pending]:
        """The pending decisions after a move: kept as they are for seats whose decision
        did not change (a claim window still open), new for the others. ``kept``: the
        decisions that may be kept (by default the table's; none for a new hand)."""
        pending = {}
        before = live.pending if kept is None else kept
        for seat in deciding_seats(state):
            step = step_of(state, seat)
            assert step is not None
            old = before.get(seat)
            pending[seat] = old if old is not None and old.step == step else \
                self.new_pending(live, state, seat, step, now)
        return pending

    def new_pending(self, live: LiveTable, state: HandState, seat: int, step: int,
                    now: float) -> Pending:
        reason = auto_reason(live.seats[seat], state, seat)
        if reason == "computer":
            return Pending(seat, step, "computer", now, now + self.service.computer_pause)
        if reason is not None:  # away, or a standing choice: at once
            return Pending(seat, step, "computer", now, now)
        options = state.options
        if state.phase is Phase.TURN:
            return Pending(seat, step, "turn", now, now + options.turn_timer)
        return Pending(seat, step, "claim", now, now + options.claim_timer)

    async def replan(self, live: LiveTable) -> None:
        """Seats whose auto-play changed (away, back, standing choices, replaced by the
        computer) get a new pending decision; the hand's deadlines are rewritten."""
        hand = live.hand
        if hand is None or hand.state.phase is Phase.ENDED:
            return
        now = self.clock.now()
        pending: dict[int, Pending] = {}
        fresh = set()
        for seat, old in live.pending.items():
            auto = auto_reason(live.seats[seat], hand.state, seat) is not None
            if (old.kind == "computer") == auto:
                pending[seat] = old
            else:
                pending[seat] = self.new_pending(live, hand.state, seat, old.step, now)
                fresh.add(seat)
        if not fresh:
            return
        await self.store.deadlines.replace(hand.row.id, deadline_rows(pending))
        live.pending = pending
        self.schedule(live, (pending[s] for s in fresh))
        await self.announcer.ping(live, fresh)

    def schedule(self, live: LiveTable, pendings: Iterable[Pending]) -> None:
        """After ``live.pending`` changed: seats no longer deciding lose their entries
        (answered, or the window closed), ``pendings`` (the new decisions) replace
        theirs; the others keep theirs."""
        assert live.hand is not None
        hand_id = live.hand.row.id
        self.scheduler.keep(live.id, live.pending)
        for p in pendings:
            wakes = [Wake(p.due_at, live.id, hand_id, p.seat, p.step)]
            if p.reminds:
                wakes.append(Wake(p.half_at, live.id, hand_id, p.seat, p.step, "remind"))
            self.scheduler.replace(live.id, p.seat, wakes)

    async def fire(self, wake: Wake) -> None:
        """A scheduled moment: check it still stands, then remind or play the default
        (timer), the computer's move or a standing choice, as any move is played."""
        try:
            async with self.recovery.locked(wake.table_id) as live:
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
            if wake.what == "remind":
                await self._remind(live, p, wake)
                return
            if wake.when != p.due_at:
                return
            action, source = self._auto_action(live, p)
            try:
                await self.moves.commit(live, action, source)
                return
            except Refused as exc:
                if exc.code == E.RACED and self.service.shared and judged < JUDGED:
                    continue  # another process moved the table (now reloaded): again
                # the kind only: a log must not hold a concealed tile
                log.warning("table %s: a %s %s was refused: %s", live.id, source,
                            action.kind.value, exc.code)
                return

    async def _remind(self, live: LiveTable, p: Pending, wake: Wake) -> None:
        assert live.hand is not None
        if not p.reminds or wake.when != p.half_at:
            return
        try:
            await self.store.deadlines.mark_reminded(live.hand.row.id, p.seat, self.clock.now())
        except NotFound:
            return
        live.pending[p.seat] = replace(p, reminded=True)
        await self.announcer.remind(live, live.pending[p.seat])

    def _auto_action(self, live: LiveTable, p: Pending) -> tuple[Action, ActionSource]:
        assert live.hand is not None
        state = live.hand.state
        seat = p.seat
        if p.kind != "computer":
            return timeout_action(state, seat), "timeout"
        seat_row = live.seats[seat]
        reason = auto_reason(seat_row, state, seat)
        if reason == "always_win":
            return Action(ActionKind.WIN, seat), "computer"
        if reason == "pass_claims":
            return Action(ActionKind.PASS, seat), "computer"
        if reason == "away" and seat_row is not None \
                and seat_row.choices.discard_drawn_when_away:
            return timeout_action(state, seat), "computer"
        return choose_action(state, seat, live.rng), "computer"

    async def after_move(self, live: LiveTable, seat: int, source: ActionSource,
                         claim: bool = False) -> None:
        """Count timeouts in a row (away after ``away_after``); a person's own move
        ends the run and brings them back. A timed-out ``claim`` does not count: being
        marked away right at a claim deadline would tell everyone the seat was asked."""
        row = live.seats[seat]
        if row is None or row.is_computer or source == "computer":
            return
        if claim and source == "timeout":
            return
        if source == "player":
            await self.mark_present(live, seat)
            return
        row = await self.store.lobby.add_timeout(live.id, seat)
        live.set_seat(row)
        assert live.match is not None
        if not row.away and row.consecutive_timeouts >= live.match.options.away_after:
            if live.match.options.away_leaves and not live.match.finished:
                await self._remove_away(live, seat)
                return
            live.set_seat(await self.store.lobby.set_away(live.id, seat, True))
            await self.announcer.publish(AwayNotice(live.ref, seat, row.user_id, row.display_name,
                                                True))
            await self.replan(live)

    async def mark_present(self, live: LiveTable, seat: int) -> None:
        row = live.seats[seat]
        if row is None or (not row.away and not row.consecutive_timeouts):
            return
        if row.consecutive_timeouts:
            row = await self.store.lobby.reset_timeouts(live.id, seat)
        if row.away:
            row = await self.store.lobby.set_away(live.id, seat, False)
            await self.announcer.publish(AwayNotice(live.ref, seat, row.user_id, row.display_name,
                                                False))
        live.set_seat(row)

    async def _remove_away(self, live: LiveTable, seat: int) -> None:
        """``away_leaves``: the timeouts in a row count as leaving the match (逃跑)."""
        row = live.seats[seat]
        assert row is not None
        penalty = await self.moves.replace_by_computer(live, seat)
        await self.announcer.publish(AwayNotice(live.ref, seat, row.user_id, row.display_name,
                                            True, removed=True,
                                            penalty=-penalty[seat] if penalty else Fraction(0)))
        await self.announcer.publish(LobbyNotice(info_of(live), "replaced", seat))
