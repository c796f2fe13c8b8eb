"""`Timers`: each open decision's moment.

`plan` gives the pending decisions after a move (a person's turn or claim timer, or a
computer's pause; a standing choice or an away seat: at once), `schedule` keeps only
those in the `Scheduler`, `replan` redoes them when a seat's auto-play changed. What
happens when a moment comes is `Alarms.fire` (alarms.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from bot.service.announcements import Announcer
from bot.service.clock import Clock
from bot.service.live import (
    LiveTable,
    Pending,
    answers_of,
    auto_reason,
    deadline_rows,
    step_of,
)
from bot.service.scheduler import Scheduler, Wake
from bot.store import Store
from engine.game import HandState, Phase, deciding_seats


class Timers:
    """Pending decisions: planned and scheduled."""

    def __init__(self, store: Store, clock: Clock, scheduler: Scheduler, announcer: Announcer,
                 *, computer_pause: float) -> None:
        """``computer_pause``: seconds a computer player waits before moving."""
        self._store = store
        self._clock = clock
        self._scheduler = scheduler
        self._announcer = announcer
        self.computer_pause = computer_pause

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
        reason = auto_reason(live.seats[seat], state, seat, answers_of(live, seat),
                             live.premoves.get(seat))
        if reason == "computer":
            return Pending(seat, step, "computer", now, now + self.computer_pause)
        if reason is not None:  # away, a standing choice or an answer given: at once
            return Pending(seat, step, "computer", now, now)
        options = state.options
        if state.phase is Phase.TURN:
            return Pending(seat, step, "turn", now, now + options.turn_timer)
        return Pending(seat, step, "claim", now, now + options.claim_timer)

    async def replan(self, live: LiveTable) -> None:
        """Seats whose auto-play changed (away, back, standing choices, claims answered
        in advance, replaced by the computer) get a new pending decision; the hand's
        deadlines are rewritten."""
        hand = live.hand
        if hand is None or hand.state.phase is Phase.ENDED:
            return
        now = self._clock.now()
        pending: dict[int, Pending] = {}
        fresh = set()
        for seat, old in live.pending.items():
            auto = auto_reason(live.seats[seat], hand.state, seat,
                               answers_of(live, seat), live.premoves.get(seat)) is not None
            if (old.kind == "computer") == auto:
                pending[seat] = old
            else:
                pending[seat] = self.new_pending(live, hand.state, seat, old.step, now)
                fresh.add(seat)
        if not fresh:
            return
        await self._store.deadlines.replace(hand.row.id, deadline_rows(pending), fence=live.fence)
        live.pending = pending
        self.schedule(live, (pending[s] for s in fresh))
        await self._announcer.ping(live, fresh)

    def schedule(self, live: LiveTable, pendings: Iterable[Pending]) -> None:
        """After ``live.pending`` changed: seats no longer deciding lose their entries
        (answered, or the window closed), ``pendings`` (the new decisions) replace
        theirs; the others keep theirs."""
        assert live.hand is not None
        hand_id = live.hand.row.id
        self._scheduler.keep(live.id, live.pending)
        for p in pendings:
            wakes = [Wake(p.due_at, live.id, hand_id, p.seat, p.step)]
            if p.reminds:
                wakes.append(Wake(p.half_at, live.id, hand_id, p.seat, p.step, "remind"))
            self._scheduler.replace(live.id, p.seat, wakes)
