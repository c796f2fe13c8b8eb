"""`Timers`: each open decision's moment.

`plan` gives the pending decisions after a move (a person's turn or claim timer, or a
computer's pause; a standing choice or an away seat: at once), `schedule` keeps only
those in the `Scheduler`, `replan` redoes them when a seat's auto-play changed. What
happens when a moment comes is `Alarms.fire` (alarms.py).

A person's decision has three moments besides its deadline, all worked out in one
place (`Timers.clocked`, each through `Timers._due`, which leaves out their rest): the
half-time reminder (half the timer), the warning when a quarter of the timer is left
(`WARN_LEFT`; only for timers of `WARN_MIN_TIMER` or more), and, at a table with the
``time_bank`` option, the end of the timer itself, after which the seat's bank runs
before the timer plays. `Timers.banks_after` says what
a move leaves of each seat's bank (used past its timer, topped up by ``time_bank_add``
after the seat's own move, never above ``time_bank``); the banks are written with the
move (time_banks) and read back by a rebuild.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

from bot.service.announcements import Announcer
from bot.service.clock import Clock
from bot.service.live import (
    LiveTable,
    Pending,
    answers_of,
    auto_reason,
    bank_left,
    deadline_rows,
    step_of,
    user_of,
)
from bot.service.people import People, rest_of
from bot.service.quiet import Quiet, Together
from bot.service.scheduler import Moment, Scheduler, Wake
from bot.store import ActionSource, DeadlineKind, DeadlineRow, PersonRow, Store
from engine.game import HandState, Phase, deciding_seats
from engine.rules.common import TableOptions

WARN_LEFT = 0.25
"""The warning DM goes when this share of a person's timer is left (once)."""
WARN_MIN_TIMER = 20 * 60
"""Timers shorter than this (live play: the quarter left is under 5 minutes) warn of
nothing: their players are at the table, and the half-time reminder is there."""


def next_wake(row: DeadlineRow) -> Wake:
    """A stored deadline's next moment (`bot.store.deadlines.MOMENT`'s order): a
    person's half-time reminder until it went out, then the quarter-left warning until
    it went out, then the deadline."""
    if row.kind != "computer" and row.reminded_at is None:
        return Wake(row.half_at, row.table_id, row.hand_id, row.seat, row.seq, "remind")
    if row.kind != "computer" and row.warn_at is not None and row.warned_at is None:
        return Wake(row.warn_at, row.table_id, row.hand_id, row.seat, row.seq, "warn")
    return Wake(row.due_at, row.table_id, row.hand_id, row.seat, row.seq)


@dataclass(frozen=True)
class Clocked:
    """A person's decision's moments (`Timers.clocked`)."""

    timer_at: float
    """When the timer itself runs out."""
    warn_at: float | None
    """When a quarter of it is left (None: no warning for this timer)."""
    due_at: float
    """When the timer plays: after the seat's time bank, if it has one."""


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

    async def next_moments(self, after: Moment | None, limit: int
                           ) -> list[tuple[Moment, Wake]]:
        """The scheduler's next page of stored moments (`Scheduler.page_from`): the
        deadlines whose next moments come after ``after``, in order, each the moment
        `next_wake` of its row."""
        return [(place, next_wake(row))
                for place, row in await self._store.deadlines.page(after, limit)]

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
        kind: DeadlineKind = "turn" if state.phase is Phase.TURN else "claim"
        clocked = self.clocked(live, seat, kind, now, options.turn_timer if kind == "turn"
                               else options.claim_timer, bank_left(live, seat, options))
        banked = clocked.due_at != clocked.timer_at
        return Pending(seat, step, kind, now, clocked.due_at,
                       timer_at=clocked.timer_at if banked else None,
                       warn_at=clocked.warn_at)

    def clocked(self, live: LiveTable, seat: int, kind: DeadlineKind, now: float,
                timer: float, bank: float) -> Clocked:
        """A person's decision put to ``seat`` at ``now`` with ``timer`` seconds and
        ``bank`` seconds of time bank: the timer's end, the quarter-left warning, and
        the deadline (the timer's end, then the bank), each counted in the person's own
        time (`_due`: rest does not count)."""
        timer_at = self._due(live, seat, kind, now, timer)
        warn_at = self._due(live, seat, kind, now, timer * (1 - WARN_LEFT)) \
            if timer >= WARN_MIN_TIMER else None
        due_at = self._due(live, seat, kind, timer_at, bank) if bank > 0 else timer_at
        return Clocked(timer_at, warn_at, due_at)

    def bank_used(self, live: LiveTable, p: Pending, now: float, bank: float) -> float:
        """What of its ``bank`` a person's decision used by ``now``: the time it ran past
        its timer, counted as the bank ran (`_due`: not while they rest), at most the
        bank."""
        if p.kind == "computer" or p.timer_at is None or now <= p.timer_at:
            return 0.0
        rest = self.rest(live, p.seat, p.kind)
        ran = now - p.timer_at if rest is None else rest.awake_between(p.timer_at, now)
        return min(bank, max(0.0, ran))

    def banks_after(self, live: LiveTable, pending: Mapping[int, Pending], seat: int,
                    source: ActionSource, now: float, options: TableOptions
                    ) -> dict[int, float]:
        """The time banks a move by ``seat`` changes (seat → seconds left): each
        person's decision it ended (``pending``: the decisions after it) spent the time
        it ran past its timer; the mover's own move (``source`` "player") adds the
        table's ``time_bank_add``, up to ``time_bank``. Empty without a bank."""
        if options.time_bank <= 0:
            return {}
        changed: dict[int, float] = {}
        for s, old in live.pending.items():
            if pending.get(s) is old:
                continue  # still deciding the same decision
            left = bank_left(live, s, options)
            used = self.bank_used(live, old, now, left)
            if used > 0:
                changed[s] = left - used
        if source == "player":
            left = changed.get(seat, bank_left(live, seat, options))
            changed[seat] = min(float(options.time_bank), left + options.time_bank_add)
        return {s: v for s, v in changed.items() if v != bank_left(live, s, options)}

    def rest(self, live: LiveTable, seat: int, kind: DeadlineKind,
             rows: Mapping[int, PersonRow | None] | None = None) -> Quiet | None:
        """What stops a decision's clock at this table (``rows``: people's settings to
        use instead of those known here). A turn's: its person's rest (quiet hours, leave
        at this table). A claim window's: anyone's at the table, so that its timing
        never tells who was asked (whose rest kept it open is not to be guessed)."""
        options = live.options
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

            def again(at: float, p: Pending = p, old: Quiet | None = old) -> float:
                """A moment still to come, keeping the time it had left under the new
                rest (one passed stays)."""
                if at <= now:
                    return at
                left = at - now if old is None else old.awake_between(now, at)
                return self._due(live, p.seat, p.kind, now, left)

            due = self._due(live, p.seat, p.kind, now, 0.0) if p.due_at <= now \
                else again(p.due_at)
            timer_at = None if p.timer_at is None else again(p.timer_at)
            warn_at = None if p.warn_at is None or p.warned else again(p.warn_at)
            if await self._move(live, p, due, timer_at, warn_at):
                moved.add(p.seat)
        return moved

    async def postpone(self, live: LiveTable, p: Pending, until: float) -> None:
        """A person's timer came due while they rest: it runs out when they are back."""
        await self._move(live, p, until)

    async def _move(self, live: LiveTable, p: Pending, due: float,
                    timer_at: float | None = None, warn_at: float | None = None) -> bool:
        """``p``'s deadline moves to ``due`` (and the end of its timer before a bank,
        its warning not yet sent, to ``timer_at`` and ``warn_at``; by default where
        they are): its reminder is owed again, a warning sent stays sent."""
        assert live.hand is not None
        timer_at = p.timer_at if timer_at is None else timer_at
        warn_at = p.warn_at if warn_at is None else warn_at
        if (due, timer_at, warn_at) == (p.due_at, p.timer_at, p.warn_at):
            return False
        moved = replace(p, due_at=due, timer_at=timer_at, warn_at=warn_at, reminded=False)
        await self._store.deadlines.set(live.hand.row.id, p.seat, seq=p.step, kind=p.kind,
                                        set_at=p.set_at, due_at=due, timer_at=timer_at,
                                        warn_at=warn_at, fence=live.fence)
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
            if p.warns and p.warn_at is not None:
                wakes.append(Wake(p.warn_at, live.id, hand_id, p.seat, p.step, "warn"))
            self._scheduler.replace(live.id, p.seat, wakes)
