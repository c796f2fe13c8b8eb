"""`Announcer`: everything the service tells, through one `Notifier.publish`.

Each notice is built here with the whole snapshot a presenter needs (seats, choices,
away flag, the person's language, the change's public news, the cause), so a notifier
never calls back. A move's notices (`announce`): the public table, each person whose
hand or decision changed, a ping for each fresh decision (`ping`). The outbox
(`deliver`, `redeliver`): announcements recorded in the store with their change are
rebuilt from their rows and handed over once per process, each with a `Receipt`.

To add a notice: its frozen dataclass in notices.py (added to the `Notice` union), a
method here that builds and publishes it, and its case in each notifier.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Awaitable, Callable, Iterable, Mapping
from fractions import Fraction
from typing import Protocol

from bot.service.cause import Cause
from bot.service.clock import Clock
from bot.service.languages import Languages
from bot.service.live import (
    AHEAD,
    LiveTable,
    Pending,
    answers_of,
    auto_reason,
    bank_now,
    covered,
    deadline_of,
    info_of,
    options_of,
    silent_offer,
    step_of,
    steps_of,
)
from bot.service.match_pace import days_a_match
from bot.service.notices import (
    Announcement,
    HandStartNotice,
    LeaderboardNotice,
    LobbyNotice,
    MatchEndNotice,
    Mentions,
    MoveKind,
    MoveNotice,
    Notice,
    PlayedAhead,
    PrivateNotice,
    RecapNotice,
    Receipt,
    Resting,
    RevealNotice,
    SettlementNotice,
    TableInfo,
    TableNotice,
    TableRef,
    WarningNotice,
    public_events,
    public_lines,
)
from bot.service.notifier import Notifier
from bot.service.people import People, leave_end
from bot.service.snapshots import replay_hand
from bot.store import AnnouncementRow, AnnouncementStatus, OwedDm, SeatRow, Store, StoreError
from engine import rules as rulesets
from engine.game import Event, HandState, Phase, timeout_action
from engine.rules.common import SEATS
from engine.view import spectator_view, visible_deciding


class Outbox(Protocol):
    """Which undelivered announcements this process hands over (`ProcessModel`)."""

    async def undelivered(self, table_id: int | None = None, *,
                          created_before: float | None = None) -> list[AnnouncementRow]: ...

log = logging.getLogger(__name__)


InfoLookup = Callable[[int], Awaitable[TableInfo]]
"""A table's info by id (`Queries.table_info`)."""


class Announcer:
    """Builds every notice from memory or the outbox and publishes it."""

    def __init__(self, store: Store, clock: Clock, notifier: Notifier, languages: Languages,
                 people: People, outbox: Outbox, *, notify_computer_hands: bool = False
                 ) -> None:
        """``outbox``: which undelivered rows are this process's to hand over (the
        process model's `undelivered`). ``notify_computer_hands``: also send private
        notices for computer seats (the offline demo shows them)."""
        self._store = store
        self._clock = clock
        self.notifier = notifier
        """Where every notice goes (a test may swap it for one that fails)."""
        self._languages = languages
        self._people = people
        self._outbox = outbox
        self.notify_computer_hands = notify_computer_hands
        self.handed: set[int] = set()
        """Announcements handed to the notifier by this process and not yet delivered."""

    async def deliver(self, live: LiveTable,
                      states: Mapping[int, HandState] | None = None,
                      cause: Cause | None = None) -> None:
        """Hand the table's undelivered announcements to the notifier, oldest first.

        They were written with the changes they announce; each goes to the notifier
        once per process (it marks them delivered), and `recover` hands over again
        whatever a crash left undelivered. ``states``: hands already in memory (no
        replay needed to word their settlement)."""
        rows = [r for r in await self._undelivered(live.id) if r.id not in self.handed]
        await self._hand_over(live.ref, rows, live, states or {}, cause)

    async def _undelivered(self, table_id: int | None = None, *,
                           created_before: float | None = None) -> list[AnnouncementRow]:
        """The undelivered rows to hand over; in shared mode those this process claimed
        (another process may be delivering the others: claims.py)."""
        return await self._outbox.undelivered(table_id, created_before=created_before)

    async def redeliver(self, table_info: InfoLookup, *,
                        created_before: float | None = None) -> None:
        """Start-up: every announcement a crash left undelivered, in order per table
        (shared mode: those nobody delivers; ``created_before``: see `Claims.sweep`).
        ``table_info`` words a lobby announcement (its table is not at hand)."""
        by_table: dict[int, list[AnnouncementRow]] = {}
        for row in await self._undelivered(created_before=created_before):
            by_table.setdefault(row.table_id, []).append(row)
        for table_id, rows in by_table.items():
            table = await self._store.lobby.get_table(table_id)
            if table is None:
                continue
            ref = TableRef(table.id, table.guild_id, table.channel_id, table.creator_id)
            log.info("table %s: delivering %s announcement(s) left by a restart", table_id,
                     len(rows))
            await self._hand_over(ref, rows, None, {}, table_info=table_info)

    async def deliver_table(self, table_id: int, table_info: InfoLookup) -> None:
        """Hand over one table's undelivered announcements written outside its own
        commands (a channel's weekly recap, which a table carries), oldest first; in
        shared mode those this process claims."""
        rows = [r for r in await self._undelivered(table_id) if r.id not in self.handed]
        table = await self._store.lobby.get_table(table_id)
        if not rows or table is None:
            return
        ref = TableRef(table.id, table.guild_id, table.channel_id, table.creator_id)
        await self._hand_over(ref, rows, None, {}, table_info=table_info)

    async def _hand_over(self, ref: TableRef, rows: list[AnnouncementRow],
                         live: LiveTable | None, states: Mapping[int, HandState],
                         cause: Cause | None = None, *,
                         table_info: InfoLookup | None = None) -> None:
        self.handed.update(r.id for r in rows)
        for row in rows:
            try:
                notice = await self._notice_of(row, ref, live, states, cause, table_info)
            except Exception:
                log.exception("announcement %s could not be worded", row.key)
                continue
            await self.publish(notice)

    async def _notice_of(self, row: AnnouncementRow, ref: TableRef, live: LiveTable | None,
                         states: Mapping[int, HandState], cause: Cause | None = None,
                         table_info: InfoLookup | None = None) -> Announcement:
        """Rebuild an announcement from its row: the hand's record (and for the
        settlement its replay, hands being deterministic) plus the row's facts."""
        receipt = Receipt(row.id, row.key, row.status == "sending", self._mark)
        facts = row.facts
        if row.kind == "lobby":
            if live is not None:
                info = info_of(live)
            else:
                assert table_info is not None, "a table not at hand is looked up"
                info = await table_info(ref.table_id)
            return LobbyNotice(info, facts["what"], by=facts.get("by"), receipt=receipt,
                               cause=cause)
        if row.kind == "recap":
            return RecapNotice.of_facts(ref, facts, receipt)
        if row.kind == "match_ended":
            return MatchEndNotice(ref, tuple(facts["names"]), _fraction_tuple(facts["totals"]),
                                  facts["hands_played"], facts["cancelled"], receipt=receipt)
        hand = await self._store.hands.get(row.hand_id or 0)
        assert hand is not None, row.key
        if row.kind == "hand_started":
            return HandStartNotice(ref, tuple(facts["names"]), hand.number, facts["hands"],
                                   hand.dealer, hand.dice, hand.streak, facts["huangfan"],
                                   hand.commitment, receipt=receipt)
        if row.kind == "reveal":
            return RevealNotice(ref, hand.number, hand.wall, hand.salt, hand.commitment,
                                receipt=receipt)
        if row.kind == "leaderboard":
            table = await self._store.lobby.get_table(ref.table_id)
            assert table is not None
            rows = await self._store.leaderboard.top(table.channel_id, table.rules)
            ratings = await self._store.ratings.shown(
                table.guild_id, table.rules, [r.user_id for r in rows if r.user_id is not None])
            return LeaderboardNotice(ref, tuple(rows), hand.number, receipt=receipt,
                                     ratings=ratings)
        state = states.get(hand.id)
        if state is None:
            table = await self._store.lobby.get_table(ref.table_id)
            assert table is not None
            state = await replay_hand(self._store, table, options_of(table), hand)
        view = spectator_view(state, hand.number)
        assert view.result is not None, row.key
        return SettlementNotice(ref, tuple(facts["names"]), state.ruleset.name, hand.number,
                                view.result, _fraction_tuple(facts["totals"]),
                                caishen=view.caishen, receipt=receipt)

    async def lobby(self, info: TableInfo, what: str, seat: int | None = None, *,
                    cause: Cause | None = None) -> None:
        """A lobby notice of a change of seats, with the table's expected pace while it
        is in the lobby (`pace`)."""
        await self.publish(LobbyNotice(info, what, seat, cause=cause,
                                       pace=await self.pace(info)))

    async def pace(self, info: TableInfo) -> float | None:
        """The days a match of this lobby takes at its seated people's own pace (their
        answer times on record, `ActionLog.answer_times`); None outside the lobby or
        while not enough is known (`match_pace.days_a_match`)."""
        if info.status != "lobby":
            return None
        people = [s.user_id for s in info.seats
                  if s is not None and not s.is_computer and s.user_id is not None]
        if not people:
            return None
        try:
            times = await self._store.log.answer_times(people)
        except StoreError:
            log.warning("table %s: the answer times could not be read", info.ref.table_id)
            return None
        hands = rulesets.get(info.rules).options(info.options).hands
        return days_a_match(info.rules, hands, [
            None if s is None else True if s.is_computer or s.user_id is None
            else times.get(s.user_id, []) for s in info.seats])

    async def _mark(self, announcement_id: int, status: AnnouncementStatus) -> None:
        await self._store.outbox.mark(announcement_id, status,
                                           self._clock.now())
        if status == "delivered":
            self.handed.discard(announcement_id)

    async def announce(self, live: LiveTable, old: HandState | None, new: HandState,
                       events: tuple[Event, ...], fresh: set[int],
                       cause: Cause | None = None, *,
                       played: tuple[int, PlayedAhead] | None = None) -> None:
        """The public table; each person whose hand or decision changed (not a claim
        decision answered for them in advance, nor its echo); a ping for each fresh
        decision of a person. A person's turn that is played at once for them, as they
        chose beforehand (`played_ahead`), is not put to them either: their DM comes
        with the move (``played``: the seat, what it drew and discarded), with this
        news."""
        assert live.hand is not None
        number = live.hand.row.number
        names = live.names
        news = public_events(events)
        await self.publish(TableNotice(live.ref, names, number, new.seq,
                                        public_lines(events, names), visible_deciding(new),
                                        news, new, live.seat_infos, cause,
                                        self.resting(live)))
        steps = steps_of(new)
        before = steps_of(old) if old is not None else None
        unasked = live.hand.unasked
        for seat in range(SEATS):
            row = live.seats[seat]
            if row is None or (row.is_computer and not self.notify_computer_hands):
                continue
            step = steps[seat]
            if old is not None and before is not None and old.seats[seat] is new.seats[seat] \
                    and before[seat] == step and seat not in fresh:
                continue
            if step is not None and self._covered(live, seat, new):
                unasked[seat] = step  # answered for them at once: nothing to ask
                live.held_news[seat] = live.held_news.get(seat, ()) + news  # told next
                continue
            if step is None and old is not None and before is not None \
                    and before[seat] is not None and unasked.get(seat) == before[seat] \
                    and old.seats[seat] is new.seats[seat]:
                # the echo of their own answer, given in advance (its news told next)
                live.held_news[seat] = live.held_news.get(seat, ()) + news
                continue
            if seat in fresh and _ahead(live, new, seat, row):
                live.held_news[seat] = live.held_news.get(seat, ()) + news
                continue
            await self.publish(self._private(
                live, seat, row, new, news, step, cause=cause,
                played=played[1] if played is not None and played[0] == seat else None,
                news_only=step is None and new.phase is not Phase.ENDED))
        await self.ping(live, fresh)

    async def ask_held(self, live: LiveTable, seats: set[int]) -> None:
        """Seats whose turn was to be played at once as chosen beforehand (their DM held
        back: `announce`) and is now put to them instead (a standing choice turned off
        in that instant): their DM, with the news held back."""
        hand = live.hand
        if hand is None:
            return
        for seat in sorted(seats & set(live.held_news)):
            row = live.seats[seat]
            if row is not None:
                await self.publish(self._private(live, seat, row, hand.state, (),
                                                 step_of(hand.state, seat)))

    @staticmethod
    def _covered(live: LiveTable, seat: int, state: HandState) -> bool:
        """A person's claim decision their answers given in advance (or a standing
        choice) decide: played at once by the computer's path (`Alarms`), never put to
        them. Nothing public tells it apart from a seat asked that answered at once."""
        p = live.pending.get(seat)
        return p is not None and p.kind == "computer" \
            and covered(live.seats[seat], state, seat, answers_of(live, seat))

    async def remind(self, live: LiveTable, p: Pending) -> None:
        """Half a person's time is gone: their DM again (with the state it shows), then
        the channel's part of the reminder."""
        row = live.seats[p.seat]
        assert live.hand is not None
        if row is None:
            return
        state = live.hand.state
        await self.publish(self._private(live, p.seat, row, state, (), step_of(state, p.seat),
                                         reminder=True))
        await self.publish(self._move(live, p, row, reminder=True))

    async def redraw(self, live: LiveTable, seat: int) -> None:
        """The seat's DM again as it stands, silently (only its decision's deadline
        moved: someone's rest changed)."""
        row = live.seats[seat]
        if live.hand is None or row is None or row.is_computer:
            return
        state = live.hand.state
        notice = self._private(live, seat, row, state, (), step_of(state, seat))
        await self.publish(dataclasses.replace(notice, silent=True))
    async def warn(self, live: LiveTable, p: Pending) -> None:
        """A quarter of a person's time is left: one short DM saying how long, the
        time bank after it, and what the timer will then play; silent where the
        decision's own DM was (a claim offering no win, a person resting)."""
        row = live.seats[p.seat]
        assert live.hand is not None
        if row is None or row.is_computer:
            return
        state = live.hand.state
        bank = bank_now(live, p.seat, state.options, self._clock.now())
        await self.publish(WarningNotice(
            live.ref, p.seat, row.user_id, live.row.rules, live.hand_number,
            "turn" if p.kind == "turn" else "claim", p.timer_end, p.due_at, bank or 0.0,
            timeout_action(state, p.seat), self._languages.of(row.user_id),
            silent_offer(state, p.seat) or self.quiet(live, row.user_id)))

    async def resend(self, live: LiveTable, owed: Iterable[OwedDm]) -> int:
        """A crash lost the DMs of these decisions (`Presenter.owed_dms`): each one still
        pending is put to its person again (the DM with the current buttons, and the
        mention the table's option asks for), after the table picture as it is now;
        how many DMs. A decision taken since (or of an earlier hand) needs nothing."""
        if live.hand is None:
            return 0
        state = live.hand.state
        seats = sorted({o.seat for o in owed if o.hand_number == live.hand_number
                        and (p := live.pending.get(o.seat)) is not None and p.step == o.step
                        and p.kind != "computer" and live.seats[o.seat] is not None})
        if not seats:
            return 0
        await self.publish(TableNotice(live.ref, live.names, live.hand_number, state.seq, (),
                                       visible_deciding(state), (), state, live.seat_infos,
                                       resting=self.resting(live)))
        for seat in seats:
            row = live.seats[seat]
            assert row is not None
            await self.publish(self._private(live, seat, row, state, (),
                                             step_of(state, seat), resent=True))
        await self.ping(live, set(seats))
        return len(seats)

    def _private(self, live: LiveTable, seat: int, row: SeatRow, state: HandState,
                 news: tuple[Event, ...], step: int | None, *, cause: Cause | None = None,
                 reminder: bool = False, resent: bool = False,
                 played: PlayedAhead | None = None, news_only: bool = False
                 ) -> PrivateNotice:
        """What one seat's person is shown of ``state``, with everything needed to show
        it: their choices, away flag, language, the public news of the change (and any
        held back from a turn played at once for them), their next discard chosen in
        advance, and the turn just played for them (``played``, their own seat's); sent
        silently when it asks to claim with no win on offer (`silent_offer`), and when
        it asks nothing in the middle of a hand (``news_only``: a turn played for them
        as they chose beforehand, by a timer or while away — a claim and its discard
        played as answered in advance too; a claim question withdrawn, their discard
        claimed), and a new hand's deal to a seat that decides nothing then: it is news
        for their next look, no call to come. The dealer's deal (it asks the first move)
        and the hand's end still notify, as every decision does."""
        assert live.hand is not None
        held = live.held_news.pop(seat, ())
        return PrivateNotice(
            live.ref, seat, row.user_id, live.names, live.hand.row.number, step,
            deadline_of(live.pending.get(seat)), state, row.choices, row.away,
            self._languages.of(row.user_id),
            held + news, cause, reminder, resent,
            silent=(step is not None and silent_offer(state, seat)) or news_only
            or self.quiet(live, row.user_id),
            next_discard=live.premoves.get(seat), played=played,
            answers=tuple(sorted(answers_of(live, seat).items())),
            bank=bank_now(live, seat, state.options, self._clock.now()))

    async def ping(self, live: LiveTable, seats: set[int]) -> None:
        for seat in sorted(seats):
            p = live.pending.get(seat)
            row = live.seats[seat]
            if p is None or p.kind == "computer" or row is None or row.is_computer:
                continue
            await self.publish(self._move(live, p, row))

    def _move(self, live: LiveTable, p: Pending, row: SeatRow, *, reminder: bool = False
              ) -> MoveNotice:
        """The ping of a person's decision: whose, which, until when; for a claim the
        seat whose tile it is (never mentioned with the others)."""
        assert live.hand is not None and live.match is not None
        state = live.hand.state
        kind: MoveKind = "turn" if p.kind == "turn" else "claim"
        discarder = state.window.from_seat if kind == "claim" and state.window else None
        mentions: Mentions = "every_turn" if live.match.options.mentions == "every_turn" \
            else "when_needed"
        # a claim's mention names every closed-DMs seat, asked or not: it is silent
        # while anyone at the table rests, never for the claimant's own rest (that
        # would tell who may claim)
        silent = self.anyone_quiet(live) if kind == "claim" else self.quiet(live, row.user_id)
        return MoveNotice(live.ref, p.seat, row.user_id, live.hand_number, p.step, kind,
                          p.due_at, reminder, live.seat_infos, mentions, discarder,
                          silent=silent)

    def anyone_quiet(self, live: LiveTable) -> bool:
        """Whether any person at the table rests now (public: the table shows it)."""
        return any(self.quiet(live, s.user_id) for s in live.seats
                   if s is not None and not s.is_computer)

    def quiet(self, live: LiveTable, user_id: int | None) -> bool:
        """Whether the person rests now (quiet hours, or leave at this table): whatever
        is sent to them then does not notify."""
        rest = self._people.rest(user_id, live.options)
        return rest is not None and rest.quiet_at(self._clock.now())

    def resting(self, live: LiveTable) -> tuple[Resting, ...]:
        """The seats whose people rest now, and until when (the table shows it)."""
        now = self._clock.now()
        options = live.options
        out = []
        for row in live.seats:
            if row is None or row.user_id is None or row.is_computer:
                continue
            rest = self._people.rest(row.user_id, options)
            until = None if rest is None else rest.quiet_until(now)
            if until is not None:
                leave = leave_end(self._people.row(row.user_id), options, now) is not None
                out.append(Resting(row.seat, until, leave))
        return tuple(out)

    async def publish(self, notice: Notice) -> None:
        """Notifier errors are logged, never raised: the move is already committed."""
        try:
            await self.notifier.publish(notice)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("notifier failed on a %s notice", notice.kind)


def _ahead(live: LiveTable, state: HandState, seat: int, row: SeatRow) -> bool:
    """The seat's fresh turn is played at once as its person chose beforehand."""
    p = live.pending.get(seat)
    return p is not None and p.kind == "computer" and not row.is_computer \
        and auto_reason(row, state, seat, answers_of(live, seat),
                        live.premoves.get(seat)) in AHEAD


def _fraction_tuple(values: list[str]) -> tuple[Fraction, ...]:
    return tuple(Fraction(v) for v in values)
