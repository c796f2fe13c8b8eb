"""`Timers`: each open decision's moment.

`plan` gives the pending decisions after a move (a person's turn or claim timer, or a
computer's pause; a standing choice or an away seat: at once), `schedule` keeps only
those in the `Scheduler`, `replan` redoes them when a seat's auto-play changed. What
happens when a moment comes is `Alarms.fire` (alarms.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace

from bot.service.announcements import Announcer
from bot.service.clock import Clock
from bot.service.live import (
    LiveTable,
    Pending,
    answers_of,
    auto_reason,
    deadline_rows,
    options_of,
    step_of,
    user_of,
)
from bot.service.people import People, rest_of
from bot.service.quiet import Quiet, Together
from bot.service.scheduler import Scheduler, Wake
from bot.store import DeadlineKind, PersonRow, Store
from engine.game import HandState, Phase, deciding_seats


class Timers:
    """Pending decisions: planned and scheduled."""

    def __init__(self, store: Store, clock: Clock, scheduler: Scheduler, announcer: Announcer,
                 people: People, *, computer_pause: float) -> None:
        """``computer_pause``: seconds a computer player waits before moving."""
        self._store = store
        self._clock = clock
        self._scheduler = scheduler
        self._announcer = announcer
        self._people = people
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
            return Pending(seat, step, "turn", now, self._due(live, seat, "turn", now,
                                                              options.turn_timer))
        return Pending(seat, step, "claim", now, self._due(live, seat, "claim", now,
                                                           options.claim_timer))

    def rest(self, live: LiveTable, seat: int, kind: DeadlineKind,
             rows: Mapping[int, PersonRow | None] | None = None) -> Quiet | None:
        """What stops a decision's clock at this table (``rows``: people's settings to
        use instead of those known here). A turn's: its person's rest (quiet hours, leave
        at this table). A claim window's: anyone's at the table, so that its timing
        never tells who was asked (whose rest kept it open is not to be guessed)."""
        options = options_of(live.row)
        known = rows or {}

        def row_of(user: int | None) -> PersonRow | None:
            if user is not None and user in known:
                return known[user]
            return self._people.row(user)

        if kind != "claim":
            return rest_of(row_of(user_of(live.seats[seat])), options)
        rests = tuple(r for s in live.seats if s is not None and not s.is_computer
                      and (r := rest_of(row_of(s.user_id), options)) is not None)
        return Together(rests) if rests else None

    def _due(self, live: LiveTable, seat: int, kind: DeadlineKind, now: float,
             seconds: float) -> float:
        """A person's deadline, ``seconds`` of their time from ``now``: time they rest
        (quiet hours, leave at this table; for a claim, anyone's at the table) does not
        count, and the deadline never falls inside it. The one place a person's
        deadline is worked out."""
        rest = self.rest(live, seat, kind)
        return now + seconds if rest is None else rest.awake_after(now, seconds)

    async def rest_changed(self, live: LiveTable, user_id: int, before: PersonRow | None
                           ) -> set[int]:
        """A person at this table changed their rest (``before``: their settings as they
        were): each pending decision it bears on (their turn; any claim window) keeps
        the time it had left, counted under the new rest; returns the seats whose
        deadline moved (each written with the table's fence, and rescheduled)."""
        hand = live.hand
        moved: set[int] = set()
        if hand is None or hand.state.phase is Phase.ENDED:
            return moved
        now = self._clock.now()
        for p in list(live.pending.values()):
            if p.kind == "computer" or (p.kind != "claim"
                                        and user_of(live.seats[p.seat]) != user_id):
                continue
            old = self.rest(live, p.seat, p.kind, {user_id: before})
            if p.due_at <= now:
                left = 0.0
            elif old is None:
                left = p.due_at - now
            else:
                left = old.awake_between(now, p.due_at)
            if await self._move(live, p, self._due(live, p.seat, p.kind, now, left)):
                moved.add(p.seat)
        return moved

    async def postpone(self, live: LiveTable, p: Pending, until: float) -> None:
        """A person's timer came due while they rest: it runs out when they are back."""
        await self._move(live, p, until)

    async def _move(self, live: LiveTable, p: Pending, due: float) -> bool:
        assert live.hand is not None
        if due == p.due_at:
            return False
        moved = replace(p, due_at=due, reminded=False)  # its reminder is owed again
        await self._store.deadlines.set(live.hand.row.id, p.seat, seq=p.step, kind=p.kind,
                                        set_at=p.set_at, due_at=due, fence=live.fence)
        live.pending = {**live.pending, p.seat: moved}
        self.schedule(live, [moved])
        return True

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
        await self._announcer.ask_held(live, {s for s in fresh if pending[s].kind != "computer"})
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
