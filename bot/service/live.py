"""The in-memory state of one table: its rows, its match, its hand (the replay of the
log) and its pending decisions. Only the service touches it, under ``lock``; the small
functions below read it (the table as anyone may see it, a decision's deadline, …)."""

from __future__ import annotations

import asyncio
import functools
import random
import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any, Literal

from bot.service.notices import ClaimAnswer, NextDiscard, SeatInfo, TableInfo, TableRef, names_of
from bot.store import (
    ClaimAnswerRow,
    DeadlineKind,
    HandRow,
    NewDeadline,
    SeatRow,
    SettlementRow,
    StandingChoices,
    TableBump,
    TableRow,
)
from engine import rules as rulesets
from engine.ai import kong_needs_caishen, less_useful
from engine.analysis import Wildcards
from engine.game import (
    Action,
    ActionKind,
    Event,
    HandState,
    Phase,
    deciding_seats,
    legal_actions,
)
from engine.match import MatchState
from engine.melds import MeldKind
from engine.rules.common import SEATS, TableOptions
from engine.tiles import Tile, parse_tiles, tile_from_notation
from engine.view import view, visible_deciding

AutoReason = Literal["computer", "away", "always_win", "pass_claims", "claim_answer",
                     "premove", "discard_drawn", "claim_discard"]
AheadReason = Literal["premove", "discard_drawn", "claim_discard"]
"""A turn played at once by what its person chose beforehand (`played_ahead`)."""
AHEAD: frozenset[AutoReason] = frozenset(("premove", "discard_drawn", "claim_discard"))

Answers = Mapping[Tile, ClaimAnswer]
"""A seat's claims answered in advance for the hand, by the tile claimed: "pong 5m",
"kong 5m", "chi 5m with 3m4m", each perhaps naming its discard ("then 9p")."""
AnswersGiven = Mapping[Tile, "ClaimAnswer | ActionKind"]
"""`Answers` as a caller may give them: a bare PONG or KONG is that claim, no discard
named."""
NO_ANSWERS: Answers = {}


def answer_of(given: ClaimAnswer | ActionKind) -> ClaimAnswer:
    """An answer as given (`AnswersGiven`) as a `ClaimAnswer`."""
    return given if isinstance(given, ClaimAnswer) else ClaimAnswer(given)


def answers_given(answers: AnswersGiven) -> Answers:
    """Answers as given, each a `ClaimAnswer`."""
    if all(isinstance(a, ClaimAnswer) for a in answers.values()):
        return answers  # type: ignore[return-value]  # checked just above
    return {tile: answer_of(a) for tile, a in answers.items()}

COVERING: frozenset[AutoReason] = frozenset(("always_win", "pass_claims", "claim_answer"))
"""The reasons that answer a person's claim window for them: the seat is *covered*, its
window played at once and never put to them (no DM, no ping)."""


@dataclass(frozen=True)
class Pending:
    """A decision owed by ``seat``: by ``due_at`` the timer (or the computer) plays it.

    ``step`` is the number the decision's buttons carry (see `step_of`)."""

    seat: int
    step: int
    kind: DeadlineKind
    set_at: float
    due_at: float
    reminded: bool = False
    timer_at: float | None = None
    """When the seat's own timer runs out; its time bank runs from there to ``due_at``
    (None: no bank, the timer ends at ``due_at``)."""
    warn_at: float | None = None
    """When a quarter of the timer is left: the warning DM (None: no warning)."""
    warned: bool = False

    @property
    def timer_end(self) -> float:
        """When the timer itself runs out (before the bank, if any)."""
        return self.due_at if self.timer_at is None else self.timer_at

    @property
    def half_at(self) -> float:
        return self.set_at + (self.timer_end - self.set_at) / 2

    @property
    def reminds(self) -> bool:
        """Only a person's own timer gets a reminder, once (not after the warning)."""
        return self.kind != "computer" and not self.reminded and not self.warned

    @property
    def warns(self) -> bool:
        """A person's own timer, long enough to warn of, warns once."""
        return self.kind != "computer" and self.warn_at is not None and not self.warned


@dataclass
class LiveHand:
    row: HandRow
    state: HandState
    answers: dict[int, Answers] = field(default_factory=dict)
    """Each seat's claims answered in advance for this hand (store.claim_answers)."""
    unasked: dict[int, int] = field(default_factory=dict)
    """Seat → the step of its claim decision its answers covered, never put to its
    person (no DM before it, none of its echo after: `Announcer.announce`)."""


@dataclass(frozen=True)
class _SeatsSeen:
    """`LiveTable.seat_infos` and `names`, and the seat rows they were made from."""

    rows: tuple[SeatRow | None, ...]
    infos: tuple[SeatInfo | None, ...]
    names: tuple[str, ...]


@dataclass
class LiveTable:
    row: TableRow
    seats: list[SeatRow | None]
    match_id: int | None = None
    match: MatchState | None = None
    hand: LiveHand | None = None
    pending: dict[int, Pending] = field(default_factory=dict)
    banks: dict[int, float] = field(default_factory=dict)
    """The live hand's time banks used or topped up so far, seat → seconds left (a seat
    not here has the table's whole ``time_bank``); stored with the moves (time_banks)."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    rng: random.Random = field(default_factory=lambda: random.Random(secrets.randbits(64)))
    version: int | None = None
    """Shared mode: the table's change counter this memory matches (None: unknown, so
    the next command reloads the table); see `SharedProcess`."""
    fence: TableBump | None = None
    """Shared mode, while a block holds the lock: what fences the block's writes (the
    table's bump, `SharedProcess.fenced`); None off shared mode or outside a block."""
    stale: bool = False
    """A write found the store disagreeing with memory (another writer): the table is
    reloaded before its lock is released (`LiveTables.settle`)."""
    premoves: dict[int, NextDiscard] = field(default_factory=dict)
    """The live hand's next discards chosen in advance, by seat (the store's premoves,
    0022, with "or my draw", 0024): private to each seat's person."""
    held_news: dict[int, tuple[Event, ...]] = field(default_factory=dict)
    """The public news a seat's DM did not get because its turn was played at once
    (`Announcer.announce`): told with its next DM."""
    used_at: float = 0.0
    """When a command, query or timer last used the table: idle long enough, it leaves
    memory (`LiveTables.unload_idle`)."""
    _seats_seen: _SeatsSeen | None = field(default=None, repr=False, compare=False)
    _ref: tuple[TableRow, TableRef] | None = field(default=None, repr=False, compare=False)
    _options: tuple[TableRow, TableOptions] | None = field(default=None, repr=False,
                                                           compare=False)

    def reset(self, row: TableRow, seats: list[SeatRow | None]) -> None:
        """Forget everything but the lock (which a reloading command holds) and the rng:
        the table is being rebuilt from the store in place."""
        self.row, self.seats, self.version = row, seats, row.version
        self.match_id, self.match, self.hand, self.pending = None, None, None, {}
        self.premoves, self.held_news = {}, {}
        self.banks = {}
        self.stale = False

    @property
    def id(self) -> int:
        return self.row.id

    @property
    def ref(self) -> TableRef:
        """The table's reference, made again only when its row changed."""
        row = self.row
        known = self._ref
        if known is None or known[0] is not row:
            known = self._ref = (row, TableRef(row.id, row.guild_id, row.channel_id,
                                               row.creator_id))
        return known[1]

    @property
    def options(self) -> TableOptions:
        """The table's validated options (`options_of`), worked out again only when its
        row changed (a move asks some five times, each a sorted key of every option)."""
        row = self.row
        known = self._options
        if known is None or known[0] is not row:
            known = self._options = (row, options_of(row))
        return known[1]

    @property
    def seat_infos(self) -> tuple[SeatInfo | None, ...]:
        return self._seen().infos

    @property
    def names(self) -> tuple[str, ...]:
        return self._seen().names

    def _seen(self) -> _SeatsSeen:
        """The seats as notices show them, made again only when a seat row changed (a
        move's notices ask for them half a dozen times)."""
        seats = tuple(self.seats)
        seen = self._seats_seen
        if seen is None or seen.rows != seats:  # the same rows: compared by identity first
            infos = tuple(None if s is None else SeatInfo(
                s.seat, s.user_id, s.display_name, s.is_computer, s.away,
                s.consecutive_timeouts, public_choices(s.choices)) for s in seats)
            seen = self._seats_seen = _SeatsSeen(seats, infos, names_of(infos))
        return seen

    @property
    def hand_number(self) -> int:
        return self.match.current.number if self.match and self.match.current else 0

    def seat_of(self, user_id: int) -> int | None:
        for s in self.seats:
            if s is not None and s.user_id == user_id:
                return s.seat
        return None

    def set_seat(self, row: SeatRow) -> None:
        self.seats[row.seat] = row


def public_choices(choices: StandingChoices) -> StandingChoices:
    """A seat's standing choices as the table shows them to anyone: without "discard my
    draw" for a ready hand (offered only while the hand is ready, it would tell that it
    was); the seat's own DM has them all."""
    if not choices.discard_drawn_when_ready:
        return choices
    return replace(choices, discard_drawn_when_ready=False)


def empty_seats() -> list[SeatRow | None]:
    return [None] * SEATS


def step_of(state: HandState, seat: int) -> int | None:
    """The number a decision's buttons carry: the seq of the first action that can
    answer it. A turn's step is the next seq; a claim window's is the seq just after it
    opened, so one seat's answer does not make another's buttons stale."""
    return _decision_step(state) if seat in deciding_seats(state) else None


def _decision_step(state: HandState) -> int:
    """The step of the decision in front of the deciding seats."""
    if state.phase is Phase.TURN:
        return state.seq + 1
    assert state.window is not None
    return state.window.opened_at + 1


def steps_of(state: HandState) -> tuple[int | None, ...]:
    """`step_of` of every seat, the deciding seats worked out once (a move's notices
    ask it of each seat, before and after)."""
    deciding = deciding_seats(state)
    if not deciding:
        return _NO_STEPS
    step = _decision_step(state)
    return tuple(step if seat in deciding else None for seat in range(SEATS))


_NO_STEPS: tuple[int | None, ...] = (None,) * SEATS


def auto_reason(seat_row: SeatRow | None, state: HandState, seat: int,
                answers: AnswersGiven = NO_ANSWERS, premove: NextDiscard | None = None
                ) -> AutoReason | None:
    """Why ``seat``'s decision is played without asking: a computer seat, an away seat,
    a standing choice that fits this decision, the claims the seat answered in
    advance (``answers``, with its standing "never chi": `advance_answer`), or a turn
    its person chose beforehand (``premove``, the seat's next discard chosen in
    advance, or the discard its claim answered in advance names: `played_ahead`);
    None: ask the person."""
    if seat_row is None or seat_row.is_computer:
        return "computer"
    if seat_row.away:
        return "away"
    choices = seat_row.choices
    if state.phase is Phase.TURN:
        if choices.always_win and any(a.kind is ActionKind.WIN
                                      for a in legal_actions(state, seat)):
            return "always_win"
        ahead = played_ahead(seat_row, state, seat, premove, answers)
        return ahead[0] if ahead is not None else None
    assert state.window is not None
    kinds = {a.kind for a in state.window.options[seat]}
    if ActionKind.WIN in kinds:
        return "always_win" if choices.always_win else None
    if advance_answer(state, seat, choices, answers) is not None:
        return "claim_answer"
    return "pass_claims" if choices.pass_claims else None


def advance_answer(state: HandState, seat: int, choices: StandingChoices,
                   answers: AnswersGiven = NO_ANSWERS) -> Action | None:
    """The move ``seat``'s answers given in advance play in the open claim window, when
    they decide every option it has there (None: they do not). A win on offer is
    never theirs to decide (only "always win" is: `auto_reason`). Named answers come
    first: "pong T" / "kong T" plays that claim of the window's tile T with the seat's
    own T tiles, "chi T with AB" that chi with the seat's own A and B, when the window
    offers exactly it (never another claim, one with a 财神 say); then "never chi"
    passes a window whose every other option is a chi (and "win only", `auto_reason`,
    every other offer). Only an option of the window is ever returned: what the rules
    allow now (only the seat after the discarder may chi), whatever was answered
    before."""
    window = state.window
    if state.phase is Phase.TURN or window is None:
        return None
    options = window.options[seat]
    if not options or any(a.kind is ActionKind.WIN for a in options):
        return None
    given = answers.get(window.tile)
    if given is not None:
        wanted = answer_of(given)
        if wanted.kind in _NAMED:
            named = Action(wanted.kind, seat, tiles=wanted.uses(window.tile))
            for action in options:
                if action == named:
                    return action
    if choices.never_chi and all(a.kind is ActionKind.CHI for a in options):
        return Action(ActionKind.PASS, seat)
    return None


def natural_chi(wild: Wildcards, tile: Tile, tiles: tuple[Tile, ...]) -> bool:
    """Whether ``tiles`` (two) make a run with ``tile`` of their own faces: suited, one
    suit, in a row, none a 财神 nor a tile playing as another (``wild``, the hand's; a
    named chi's: which window offers it, the engine says then)."""
    if len(tiles) != 2:
        return False
    run = sorted((tile, *tiles))
    if any(not t.is_suited or wild.plays_as(t) != t for t in run):
        return False
    return run[0] // 9 == run[2] // 9 and run[1] == run[0] + 1 and run[2] == run[1] + 1


_NAMED = frozenset((ActionKind.PONG, ActionKind.KONG, ActionKind.CHI))
"""The claims an answer given in advance may name."""


def claimed_then(state: HandState, seat: int, answers: AnswersGiven) -> Tile | None:
    """The discard the seat's answer given in advance names to follow the claim its
    turn began with ("pong 5m, then 9p"), when that turn began with exactly the claim
    the answer names (a chi or a pong: a kong draws its replacement, a turn the next
    discard chosen in advance plays); None otherwise."""
    mine = state.seats[seat]
    if not mine.claimed_turn or not mine.melds:
        return None
    meld = mine.melds[-1]
    tile = meld.claimed
    if tile is None or meld.kind not in _THEN_KINDS:
        return None
    given = answers.get(tile)
    if given is None:
        return None
    answer = answer_of(given)
    if answer.then is None or _THEN_KINDS.get(meld.kind) is not answer.kind \
            or sorted((*answer.uses(tile), tile)) != sorted(meld.tiles):
        return None
    return answer.then


_THEN_KINDS = {MeldKind.CHI: ActionKind.CHI, MeldKind.PONG: ActionKind.PONG}
"""The claims an answer given in advance may name a discard after."""


def covered(seat_row: SeatRow | None, state: HandState, seat: int,
            answers: AnswersGiven = NO_ANSWERS) -> bool:
    """Whether a person's claim decision is answered for them (`COVERING`)."""
    return seat_row is not None and not seat_row.is_computer and state.phase is not Phase.TURN \
        and auto_reason(seat_row, state, seat, answers) in COVERING


def answers_in(rows: Iterable[ClaimAnswerRow], hand_id: int) -> dict[int, Answers]:
    """The stored answers of one hand, by seat."""
    out: dict[int, dict[Tile, ClaimAnswer]] = {}
    for r in rows:
        if r.hand_id == hand_id:
            out.setdefault(r.seat, {})[tile_from_notation(r.tile)] = answer_in(r)
    return dict(out)


def answer_in(row: ClaimAnswerRow) -> ClaimAnswer:
    """A stored answer as the service holds it."""
    return ClaimAnswer(ANSWER_KINDS[row.kind],
                       tuple(parse_tiles(row.with_tiles)) if row.with_tiles else (),
                       tile_from_notation(row.then_discard) if row.then_discard else None)


ANSWER_KINDS = {"pong": ActionKind.PONG, "kong": ActionKind.KONG, "chi": ActionKind.CHI}


def answers_of(live: LiveTable, seat: int) -> Answers:
    """The seat's claims answered in advance in the live hand."""
    return live.hand.answers.get(seat, NO_ANSWERS) if live.hand is not None else NO_ANSWERS


def silent_offer(state: HandState, seat: int) -> bool:
    """Whether the decision in front of ``seat`` is a claim offer holding no win: its DM
    goes out without notifying (for everybody, always; a claim window's mention in the
    channel is never told apart by it, nor anything else public)."""
    window = state.window
    if state.phase is Phase.TURN or window is None or not window.options[seat]:
        return False
    return all(a.kind is not ActionKind.WIN for a in window.options[seat])


_KONGS = frozenset({ActionKind.KONG, ActionKind.CONCEALED_KONG, ActionKind.ADDED_KONG})


def asks_in_person(state: HandState, legal: Iterable[Action]) -> bool:
    """Whether a turn offering ``legal`` is put to its person whatever they chose
    beforehand: it offers a win, or a kong of their own natural tiles. A kong that needs
    a 财神 (`kong_needs_caishen`: the computer never gives one up so) does not stop a
    pre-move nor "discard my draw" (issue 30, amendment D)."""
    return any(a.kind is ActionKind.WIN
               or (a.kind in _KONGS and not kong_needs_caishen(state.wildcards, a))
               for a in legal)


def played_ahead(seat_row: SeatRow, state: HandState, seat: int,
                 premove: NextDiscard | None, answers: AnswersGiven = NO_ANSWERS
                 ) -> tuple[AheadReason, Action] | None:
    """The discard ``seat``'s turn plays at once because its person chose it
    beforehand, and why; None: ask them. A turn right after the seat's own chi or pong:
    the discard its answer given in advance named ("pong 5m, then 9p": `claimed_then`),
    when still held and legal and no win is offered. Else only a turn that began with a
    draw (not the dealer's first) and whose draw offers no win and no kong of the seat's
    natural tiles (`asks_in_person`), and only a discard the rules allow now: the next
    discard chosen in advance (``premove``) if it is still held — or, with its "or my
    draw" on, the drawn tile when the engine's own advice keeps it less
    (`engine.ai.less_useful`; a chosen 财神 is a float meant, played as chosen) — else
    (none chosen) the drawn tile when the seat asked for "discard my draw" and its hand
    is ready without it (the engine's waits, as the discard menu shows them). A chosen
    next discard no longer held asks."""
    if state.phase is not Phase.TURN or state.turn != seat:
        return None
    if state.seats[seat].claimed_turn:
        then = claimed_then(state, seat, answers) if answers else None
        if then is None:
            return None
        after = Action(ActionKind.DISCARD, seat, then)
        legal = legal_actions(state, seat)
        if after not in legal or any(a.kind is ActionKind.WIN for a in legal):
            return None
        return "claim_discard", after
    drawn = state.seats[seat].drawn
    if drawn is None:
        return None
    legal = legal_actions(state, seat)
    if asks_in_person(state, legal):
        return None
    if premove is not None:
        chosen = Action(ActionKind.DISCARD, seat, premove.tile)
        if chosen not in legal:
            return None
        if not premove.or_draw or state.wildcards.is_joker(premove.tile):
            return "premove", chosen
        tile = less_useful(state, seat, (premove.tile, drawn))
        return "premove", chosen if tile is None else Action(ActionKind.DISCARD, seat, tile)
    if not seat_row.choices.discard_drawn_when_ready:
        return None
    action = Action(ActionKind.DISCARD, seat, drawn)
    if action not in legal or not discard_keeps_ready(state, seat, drawn):
        return None
    return "discard_drawn", action


def discard_keeps_ready(state: HandState, seat: int, tile: Tile) -> bool:
    """Whether the seat's hand waits on a tile the win button would accept after
    discarding ``tile`` (the discard menu's "听 waits")."""
    return any(m.action.kind is ActionKind.DISCARD and m.action.tile == tile and m.waits
               for m in view(state, seat).moves)
def bank_left(live: LiveTable, seat: int, options: TableOptions) -> float:
    """What is left of ``seat``'s time bank in the live hand, as its last move left it
    (0: none at this table)."""
    full = float(options.time_bank)
    return min(full, live.banks.get(seat, full)) if full > 0 else 0.0


def bank_now(live: LiveTable, seat: int, options: TableOptions, now: float) -> float | None:
    """What a person sees of their time bank at ``now``: what is left, less what their
    decision has run past its timer so far (None: the table has no bank)."""
    if options.time_bank <= 0:
        return None
    left = bank_left(live, seat, options)
    p = live.pending.get(seat)
    if p is not None and p.kind != "computer" and p.timer_at is not None:
        left -= min(left, max(0.0, now - p.timer_at))
    return left


def deadline_of(p: Pending | None) -> float | None:
    """The deadline a person is shown (none for a computer's or an automatic move)."""
    return p.due_at if p is not None and p.kind != "computer" else None


def options_of(row: TableRow) -> TableOptions:
    """The table's validated options (a bad stored option raises `OptionError`)."""
    try:
        # typed: 1 == True == 1.0, but only one of them may be an option's value
        key = tuple((name, type(value), value) for name, value in sorted(row.options.items()))
        hash(key)
    except TypeError:  # a value that is no option's (a list): validated, and refused
        return rulesets.get(row.rules).options(row.options)
    return _options(row.rules, key)


@functools.lru_cache(maxsize=256)
def _options(rules: str, items: tuple[tuple[str, type, Any], ...]) -> TableOptions:
    """Options are frozen, and tables share a few sets of them: each set is validated
    once (a rebuild asks for every live table's)."""
    return rulesets.get(rules).options({name: value for name, _, value in items})


def computers_of(live: LiveTable) -> tuple[bool, ...]:
    return tuple(s is None or s.is_computer for s in live.seats)


def info_of(live: LiveTable) -> TableInfo:
    """The table as anyone may see it (whose turn, but nobody during a claim window)."""
    match = live.match
    hand = live.hand
    return TableInfo(
        live.ref, live.row.creator_id, live.row.rules, dict(live.row.options),
        live.row.status, live.seat_infos,
        hand_number=live.hand_number or None,
        hands_in_match=match.options.hands if match else None,
        deciding=visible_deciding(hand.state) if hand else (),
        totals=match.totals if match else None,
        hands_played=match.hands_played if match else 0)


def deadline_rows(pending: Mapping[int, Pending]) -> list[NewDeadline]:
    return [NewDeadline(p.seat, p.step, p.kind, p.set_at, p.due_at, p.timer_at, p.warn_at)
            for p in pending.values()]


def user_of(row: SeatRow | None) -> int | None:
    return row.user_id if row is not None else None


def match_totals(settled: Iterable[SettlementRow], penalties: Mapping[int, Fraction]
                 ) -> tuple[Fraction, ...]:
    """A match's totals from its hands' settlement rows and its penalties: what a
    restart rebuilds, and what a match that ended without storing its totals shows."""
    totals = [penalties.get(seat, Fraction(0)) for seat in range(SEATS)]
    for s in settled:
        totals[s.seat] += s.amount
    return tuple(totals)
