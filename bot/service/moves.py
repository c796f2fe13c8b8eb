"""`Moves`: the one path of every move, and the hands it starts and ends.

Whether a person clicked, a timer ran out or the computer played: the table's lock
(held by the caller) → `engine.apply` on the in-memory state → `ActionLog.append`
(compare-and-set on the next seq, with the next deadlines in the same transaction) →
the new state replaces the old → the `Announcer` tells. The last move of a hand goes
through `Endings.finish_and_deal` with settlements, leaderboard deltas and the hand's
announcements, and the next hand dealt (`deal`) in the same transaction (the last hand
of a match: `Endings.finish_hand`, with the match totals, the match rated in the same
transaction: bot/service/ratings.py) (`end_hand`); a match's first
hand is written with its start (`Commands.start`). No other process ever reads a match
between two hands (shared mode), nor does a crash leave one. A seat given to the
computer mid-match (`replace_by_computer`) is charged the rule set's penalty here too,
and so is one whose timeouts in a row reached ``away_after`` with ``away_leaves``
(`after_move` counts them: away after ``away_after``; a person's own move brings them
back, `mark_present`).

A write the store refuses (another writer moved the table) marks the table ``stale``:
it is reloaded before its lock is released (`LiveTables.settle`), and the move is
refused `raced`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from bot import metrics
from bot.service import errors as E
from bot.service import fairness
from bot.service.announcements import Announcer
from bot.service.cause import Cause
from bot.service.clock import Clock
from bot.service.errors import Refused
from bot.service.facts import FACTS
from bot.service.fairness import Deal
from bot.service.live import (
    AheadReason,
    LiveHand,
    LiveTable,
    Pending,
    answers_of,
    auto_reason,
    deadline_rows,
    info_of,
    step_of,
    user_of,
)
from bot.service.notices import AwayNotice, ClaimAnswer, LobbyNotice, PlayedAhead, TableRef
from bot.service.ratings import FORMULA
from bot.service.results import ActResult
from bot.service.scheduler import Scheduler
from bot.service.snapshots import snapshot_of
from bot.service.timers import Timers
from bot.store import (
    ActionSource,
    Conflict,
    HandRow,
    LeaderboardDelta,
    NewAction,
    NewAnnouncement,
    NewHand,
    Settlement,
    StaleAction,
    Store,
    StoreError,
    best_hand_key,
    player_key,
)
from engine.game import (
    Action,
    ActionKind,
    Event,
    HandState,
    IllegalAction,
    Phase,
    apply,
    new_hand,
)
from engine.game.settle import wildcards_held
from engine.match import HandOutcome, MatchState, finish_hand, start_hand
from engine.match import leave as match_leave
from engine.melds import MeldKind
from engine.rules.common import SEATS
from engine.tiles import Tile

JUDGED = 3
"""Shared mode: how often a click or a timer is judged against a table another process
keeps moving (each lost compare-and-set reloads the table first)."""

ComputerNamer = Callable[[TableRef, int, str | None], str]
"""The name a computer seat gets when it sits down: (table, seat 0–3, the name of the
player it replaces mid-match or None). The name is stored with the seat, so every place
that shows it (lobby, pictures, settlement, leaderboard) shows the same words."""


@dataclass(frozen=True)
class Dealt:
    """A hand dealt in memory (`Moves.deal`): the match with it started, its number,
    its state and the deal's events, its first decisions, and what the store writes."""

    match: MatchState
    number: int
    state: HandState
    events: tuple[Event, ...]
    pending: dict[int, Pending]
    new: NewHand


class Moves:
    """Commit moves; deal, settle and void hands; seats away or taken over."""

    def __init__(self, store: Store, clock: Clock, scheduler: Scheduler, timers: Timers,
                 announcer: Announcer, *, deal: Callable[[str, int], Deal],
                 computer_name: ComputerNamer, snapshot_every: int) -> None:
        """``deal`` shuffles a wall (rules, dealer); ``computer_name`` names a seat the
        computer takes over; ``snapshot_every``: a live hand's state is saved with every
        this many actions (0: never; snapshots.py)."""
        self._store = store
        self._clock = clock
        self._scheduler = scheduler
        self._timers = timers
        self._announcer = announcer
        self.shuffle = deal
        """How a wall is shuffled (tests stack walls by setting another)."""
        self._computer_name = computer_name
        self.snapshot_every = snapshot_every

    def deal(self, live: LiveTable, match: MatchState, now: float) -> Dealt:
        """The next hand of ``match``, not yet written: a wall shuffled with `secrets`
        (its commitment shown), the dice, the deal, and its first decisions' deadlines
        — what the transaction that deals it writes (`Matches.start`,
        `Endings.finish_and_deal`)."""
        dice = fairness.roll_dice()
        match, setup = start_hand(match, dice)
        deal = self.shuffle(live.row.rules, setup.dealer)
        state, events = new_hand(live.row.rules, match.options, deal.wall, setup.dealer, dice,
                                 streak=setup.streak, huangfan=setup.huangfan)
        live.banks = {}  # every hand starts with whole banks
        pending = self._timers.plan(live, state, now, kept={})
        return Dealt(match, setup.number, state, events, pending, NewHand(
            deal.wall_text, deal.salt, deal.commitment, dice, setup.dealer, setup.streak,
            match.huangfan, [NewAnnouncement("hand_started", facts={
                "names": list(live.names), "hands": match.options.hands,
                "huangfan": setup.huangfan})], deadline_rows(pending)))

    async def start_hand(self, live: LiveTable, cause: Cause | None = None) -> None:
        """Deal the next hand of a match that has none live: only to mend a database a
        crash of an older version left between two hands (the service deals with the
        end of the hand before, `end_hand`). Another process mending it first wins: the
        table is reloaded as it stored it."""
        assert live.match is not None and live.match_id is not None
        dealt = self.deal(live, live.match, self._clock.now())
        try:
            row = await self._store.matches.deal(live.match_id, dealt.new, at=self._clock.now(),
                                                 fence=live.fence)
        except Conflict:  # reloaded before the lock is released (`LiveTables.settle`)
            live.stale = True
            return
        await self.dealt(live, dealt, row, cause)

    async def dealt(self, live: LiveTable, dealt: Dealt, row: HandRow,
                    cause: Cause | None = None, *, delivered: bool = False) -> None:
        """A hand was dealt (written with its deadlines): memory takes it, the lobby and
        the channel are told (``delivered``: its announcements were already handed
        over), and each deciding seat gets its DM."""
        state = dealt.state
        live.match = dealt.match
        live.hand = LiveHand(row, state)
        live.pending = {}
        live.premoves, live.held_news = {}, {}
        self._scheduler.forget(live.id)
        # The lobby message says which hand is being played: each deal updates it.
        await self._announcer.publish(LobbyNotice(
            info_of(live), "started" if dealt.number == 1 else "hand_started",
            cause=cause))
        if not delivered:
            await self._announcer.deliver(live, cause=cause)
        if state.phase is Phase.ENDED:  # 八花 on the deal
            try:
                await self.end_hand(live, state, dealt.events, None, cause)
            except Refused as exc:
                if exc.code != E.RACED:
                    raise
                # shared mode: another process's recovery ended it first (the only
                # state a peer mends while this one works on it); it was reloaded
            return
        live.pending = dealt.pending
        self._timers.schedule(live, dealt.pending.values())
        await self._announcer.announce(live, None, state, dealt.events, set(dealt.pending),
                                      cause)

    async def commit(self, live: LiveTable, action: Action, source: ActionSource,
                     cause: Cause | None = None, *, ahead: AheadReason | None = None
                     ) -> ActResult:
        """The one path of every move (see the module docstring). ``ahead``: the move is
        a turn its person chose beforehand (`played_ahead`): their DM says so. The
        next discards chosen in advance that the move spends (`premoves_spent`) go in
        its transaction."""
        hand = live.hand
        assert hand is not None
        old = hand.state
        try:
            new, events = apply(old, action)
        except IllegalAction as exc:
            raise _illegal(exc, live.names) from None
        now = self._clock.now()
        asked = live.pending.get(action.seat)
        row = NewAction(old.seq + 1, action.seat, action.kind.value, action.to_json(),
                        source, now,
                        asked.set_at if source == "player" and asked is not None else None)
        if new.phase is Phase.ENDED:
            await self.end_hand(live, new, events, row, cause)
            metrics.move(source)
            await self.after_move(live, action.seat, source, old.phase is not Phase.TURN)
            return ActResult(live.id, hand.row.number, row.expected_seq, True,
                             live.match is None or live.match.finished, action.seat)
        pending = self._timers.plan(live, new, now)
        banks = self._timers.banks_after(live, pending, action.seat, source, now, new.options)
        if banks:  # the decisions after the move run with the banks it left
            live.banks.update(banks)
            pending = self._timers.plan(live, new, now)
        fresh = {s for s, p in pending.items() if live.pending.get(s) is not p}
        spent = premoves_spent(live, action, new, fresh)
        premove = live.premoves.get(action.seat)
        try:
            await self._store.log.append(
                hand.row.id, row.expected_seq, row.seat, row.kind, row.payload, source, now,
                deadlines=deadline_rows(pending) if fresh else None,
                snapshot=snapshot_of(new, self.snapshot_every), premoves_spent=spent,
                asked_at=row.asked_at, banks=banks, fence=live.fence)
        except StoreError as exc:
            live.stale = True  # reloaded before the lock is released (`LiveTables.settle`)
            raise _stale(exc) from None
        hand.state = new
        live.pending = pending
        for seat in spent:
            live.premoves.pop(seat, None)
        self._timers.schedule(live, (pending[s] for s in fresh))
        metrics.move(source)
        await self.after_move(live, action.seat, source, old.phase is not Phase.TURN)
        played = _played(old, action, ahead,
                         premove.tile if premove is not None else None)
        await self._announcer.announce(live, old, new, events, fresh, cause,
                                       played=played)
        mine = new.seats[action.seat]
        held = mine.hand if step_of(new, action.seat) is None else ()
        return ActResult(live.id, hand.row.number, row.expected_seq, False, False, action.seat,
                         held, new.wildcards.joker,
                         tuple(sorted(answers_of(live, action.seat).items())) if held else ())

    async def end_hand(self, live: LiveTable, state: HandState, events: tuple[Event, ...],
                       final: NewAction | None, cause: Cause | None = None) -> None:
        """Settle: final action, settlements, standings (and match totals) in one
        transaction; then tell; then deal the next hand unless the match is over."""
        assert live.hand is not None and live.match is not None and state.result is not None
        hand = live.hand
        match = finish_hand(live.match, outcome(state))
        now = self._clock.now()
        told = [NewAnnouncement("settlement", facts={
                    "names": list(live.names), "totals": _fractions(match.totals)}),
                NewAnnouncement("reveal"), NewAnnouncement("leaderboard")]
        if match.finished:
            told += [NewAnnouncement("lobby", facts={"what": "finished"}),
                     NewAnnouncement("match_ended", facts=_end_facts(live, match))]
        dealt = None if match.finished else self.deal(live, match, now)
        try:
            if dealt is None:
                await self._store.endings.finish_hand(
                    hand.row.id, final, settlements=_settlements(state),
                    deltas=await self._deltas(live, state, True), at=now,
                    match_totals=dict(enumerate(match.totals)), announcements=told,
                    facts=FACTS, rating=FORMULA, fence=live.fence)
            else:  # the next hand is dealt in the same transaction
                _, next_row = await self._store.endings.finish_and_deal(
                    hand.row.id, final, settlements=_settlements(state),
                    deltas=await self._deltas(live, state, False), at=now,
                    announcements=told, deal=dealt.new, facts=FACTS, fence=live.fence)
        except StoreError as exc:
            live.stale = True  # reloaded before the lock is released (`LiveTables.settle`)
            raise _stale(exc) from None
        old = hand.state
        hand.state = state
        live.match = match
        live.pending = {}
        live.premoves = {}  # deleted with the hand's end
        self._scheduler.forget(live.id)
        await self._announcer.announce(live, old, state, events, set(), cause)
        if match.finished:
            # written with the last hand; it leaves memory with the lock (`LiveTables.settle`)
            live.row = replace(live.row, status="finished")
            live.hand = None
        await self._announcer.deliver(live, {hand.row.id: state}, cause)
        if dealt is not None:
            await self.dealt(live, dealt, next_row, cause, delivered=True)

    def void(self, live: LiveTable, by: str) -> list[NewAnnouncement]:
        """What a cancelled table tells the channel (recorded with the cancellation):
        the running hand is void (no settlement) and its wall revealed; the match is
        abandoned. ``by``: who cancelled it (the players' open DMs say so)."""
        hand = live.hand
        number = live.hand_number
        told = []
        if hand is not None and hand.state.phase is not Phase.ENDED:
            told.append(NewAnnouncement("reveal", hand.row.id, hand.row.number))
        told.append(NewAnnouncement("lobby", None, number, {"what": "cancelled", "by": by}))
        if live.match is not None:
            told.append(NewAnnouncement("match_ended", None, number,
                                        _end_facts(live, live.match, cancelled=True)))
        return told

    async def replace_by_computer(self, live: LiveTable, seat: int
                                  ) -> tuple[Fraction, ...] | None:
        """The computer takes the seat for good; returns the 逃跑 penalty charged."""
        old = live.seats[seat]
        assert old is not None and live.match is not None
        penalty = self.abandon_penalty(live, seat)
        hand = live.hand
        running = hand is not None and hand.state.phase is not Phase.ENDED
        charged = {s: a for s, a in enumerate(penalty or ()) if a}
        # the standings of the people concerned (a computer receiving it has none)
        deltas = [LeaderboardDelta(player_key(old.user_id if s == seat else
                                              user_of(live.seats[s]), s),
                                   old.display_name if s == seat else live.names[s],
                                   points=amount)
                  for s, amount in charged.items()
                  if s == seat or user_of(live.seats[s]) is not None]
        live.set_seat(await self._store.matches.replace_by_computer(
            live.id, seat,
            display_name=self._computer_name(live.ref, seat, old.display_name),
            match_id=live.match_id, penalties=charged, reason="abandon", deltas=deltas,
            at=self._clock.now(),
            left=(hand.row.id, hand.state.seq) if hand is not None and running else None,
            fence=live.fence))
        live.match = match_leave(live.match, seat, penalty)
        await self._timers.replan(live)
        return penalty

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
        row = await self._store.lobby.add_timeout(live.id, seat, fence=live.fence)
        live.set_seat(row)
        assert live.match is not None
        if not row.away and row.consecutive_timeouts >= live.match.options.away_after:
            if live.match.options.away_leaves and not live.match.finished:
                await self._remove_away(live, seat)
                return
            live.set_seat(await self._store.lobby.set_away(live.id, seat, True, fence=live.fence))
            await self._announcer.publish(AwayNotice(live.ref, seat, row.user_id, row.display_name,
                                                True))
            await self._timers.replan(live)

    async def mark_present(self, live: LiveTable, seat: int) -> None:
        row = live.seats[seat]
        if row is None or (not row.away and not row.consecutive_timeouts):
            return
        if row.consecutive_timeouts:
            row = await self._store.lobby.reset_timeouts(live.id, seat, fence=live.fence)
        if row.away:
            row = await self._store.lobby.set_away(live.id, seat, False, fence=live.fence)
            await self._announcer.publish(AwayNotice(live.ref, seat, row.user_id, row.display_name,
                                                False))
        live.set_seat(row)

    async def _remove_away(self, live: LiveTable, seat: int) -> None:
        """``away_leaves``: the timeouts in a row count as leaving the match (逃跑)."""
        row = live.seats[seat]
        assert row is not None
        penalty = await self.replace_by_computer(live, seat)
        await self._announcer.publish(AwayNotice(live.ref, seat, row.user_id, row.display_name,
                                            True, removed=True,
                                            penalty=-penalty[seat] if penalty else Fraction(0)))
        await self._announcer.publish(LobbyNotice(info_of(live), "replaced", seat))

    def abandon_penalty(self, live: LiveTable, seat: int) -> tuple[Fraction, ...] | None:
        """What leaving now costs each seat (None: nothing, e.g. Shanghai)."""
        hand = live.hand
        if hand is None or hand.state.phase is Phase.ENDED:
            return None
        return hand.state.ruleset.abandon_penalty(hand.state, seat)

    async def _deltas(self, live: LiveTable, state: HandState, match_over: bool
                      ) -> list[LeaderboardDelta]:
        """Each person's line of the hand. A computer has none (computers never rank);
        a hand its person left midway is theirs (its points, one hand played, with the
        penalty already charged), not the computer's, though a win the computer made in
        it after they left is not counted as theirs."""
        assert state.result is not None and live.hand is not None
        wins = {w.winner: w for w in state.result.wins}
        left = {}
        if live.match_id is not None and any(r is not None and r.is_computer
                                             for r in live.seats):
            left = {d.seat: d for d in await self._store.matches.departures(live.match_id)
                    if d.hand_id == live.hand.row.id}
        out = []
        for seat in range(SEATS):
            row = live.seats[seat]
            record = wins.get(seat)
            gone = left.get(seat)
            if gone is not None:
                out.append(LeaderboardDelta(
                    player_key(gone.user_id, seat), gone.display_name,
                    points=state.result.payments[seat], hands_played=1))
                continue
            if row is None or row.is_computer:
                continue
            # Kept as data (rule set and pattern ids): each reader gets it in their words.
            desc = best_hand_key(state.rules, record.settlement.patterns) if record else None
            out.append(LeaderboardDelta(
                player_key(user_of(row), seat), live.names[seat],
                points=state.result.payments[seat], hands_won=1 if record else 0,
                hands_played=1, matches_played=1 if match_over else 0,
                hand_value=record.settlement.value if record else None, hand_desc=desc))
        return out


def _played(old: HandState, action: Action, ahead: AheadReason | None,
            chosen: Tile | None) -> tuple[int, PlayedAhead] | None:
    """What the seat's DM tells of a turn played at once as its person chose
    beforehand (``ahead``): what it drew, or the claim it made, what it discarded, and
    (a pre-move) the tile it had ``chosen``."""
    mine = old.seats[action.seat]
    if ahead is None or action.tile is None:
        return None
    if ahead == "claim_discard":
        meld = mine.melds[-1]
        assert meld.claimed is not None  # `claimed_then` judged it
        claimed = (meld.claimed, ClaimAnswer(
            ActionKind.CHI if meld.kind is MeldKind.CHI else ActionKind.PONG,
            _taken(meld.tiles, meld.claimed) if meld.kind is MeldKind.CHI else (),
            action.tile))
        return action.seat, PlayedAhead(ahead, None, action.tile, claim=claimed)
    if mine.drawn is None:
        return None
    return action.seat, PlayedAhead(ahead, mine.drawn, action.tile,
                                    chosen if ahead == "premove" else None)


def _taken(tiles: tuple[Tile, ...], claimed: Tile) -> tuple[Tile, ...]:
    """A meld's tiles from the claimer's hand: all but (one) claimed tile."""
    rest = list(tiles)
    rest.remove(claimed)
    return tuple(sorted(rest))


def premoves_spent(live: LiveTable, action: Action, new: HandState, fresh: set[int]
                   ) -> list[int]:
    """The seats whose next discard chosen in advance ``action`` spends: its own seat's
    by any move but a pass and but a discard of another tile (the discard of the chosen
    tile plays it; a claim spends it: after its own claim a seat is asked), and a seat
    whose turn now comes and is put to its person instead (dropped: it was for this
    turn). When "or my draw" threw the draw instead, the chosen tile is still held and
    still its person's plan: it stays chosen for the seat's next turn."""
    spent = []
    chosen = live.premoves
    mine = chosen.get(action.seat)
    if mine is not None and action.kind is not ActionKind.PASS \
            and not (action.kind is ActionKind.DISCARD and action.tile != mine.tile):
        spent.append(action.seat)
    if new.phase is Phase.TURN and new.turn in fresh and new.turn in chosen \
            and new.turn not in spent and auto_reason(live.seats[new.turn], new, new.turn,
                                                      premove=chosen[new.turn]) != "premove":
        spent.append(new.turn)
    return spent


def parse_action(action: Action | Mapping[str, Any]) -> Action:
    if isinstance(action, Action):
        return action
    try:
        return Action.from_json(action)
    except IllegalAction as exc:
        raise _illegal(exc) from None


def _illegal(exc: IllegalAction, names: Sequence[str] = ()) -> Refused:
    """The engine's refusal (``refusal``: its code and values) and kind (``why``) for
    the adapter to say in the reader's language, with ``names`` for the seats it
    mentions; ``detail`` is the engine's English sentence."""
    return Refused(E.ILLEGAL, exc.reason, why=exc.kind, detail=exc.reason,
                   refusal=exc.refusal, names=tuple(names))


def _stale(exc: StoreError) -> Refused:
    if isinstance(exc, StaleAction):
        return Refused(E.RACED, "another move landed first; look at the table again")
    return Refused(E.RACED, "the table changed meanwhile; look at it again")


def outcome(state: HandState) -> HandOutcome:
    result = state.result
    assert result is not None
    discarder = result.wins[0].from_seat if result.wins else None
    return HandOutcome(tuple(w.winner for w in result.wins), discarder, result.payments)


def _settlements(state: HandState) -> list[Settlement]:
    assert state.result is not None
    wins = {w.winner: w for w in state.result.wins}
    out = []
    for seat in range(SEATS):
        won = wins.get(seat)
        out.append(Settlement(seat, state.result.payments[seat],
                              list(won.settlement.patterns) if won else [],
                              won.settlement.value if won else 0,
                              won.win.value if won else None,
                              won.from_seat if won else None,
                              wildcards_held(state, won) if won else None))
    return out


def _fractions(values: tuple[Fraction, ...]) -> list[str]:
    return [str(v) for v in values]


def _end_facts(live: LiveTable, match: MatchState, *, cancelled: bool = False
               ) -> dict[str, Any]:
    """What the match-end message says that the log does not keep."""
    return {"names": list(live.names), "totals": _fractions(match.totals),
            "hands_played": match.hands_played, "cancelled": cancelled}
