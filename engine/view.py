"""What a seat (or a spectator) may see of a hand: the only input pictures and messages
need. Nothing here ever holds another seat's concealed tiles.

A concealed kong shows its four tiles to its owner and four backs (None) to everyone
else; a seat's concealed tiles appear only as a count outside its own `PlayerView`.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from operator import attrgetter
from typing import Generic, NamedTuple, TypeVar, overload

from engine.ai import Judge, choose_discard, remembered_judge
from engine.analysis import HandAnalysis, discard_waits
from engine.game.actions import Action
from engine.game.legal import deciding_seats, legal_actions, remembered_self_draw
from engine.game.prospect import (
    NO_WAITS,
    Wait,
    WinProspect,
    after_discard,
    prospect_of,
    winning_waits,
)
from engine.game.settle import eight_flowers, judge
from engine.game.state import (
    Discard,
    HandState,
    Phase,
    SeatState,
    WinRecord,
    make,
    replace,
)
from engine.melds import Meld, MeldKind
from engine.memo import IdentityMemo, bounded
from engine.rules.common import ActionKind, Charge, WinKind
from engine.tiles import NUM_KINDS, Tile, format_tiles

T = TypeVar("T")

# The members the views test on every state, as module names: reading a member off its
# enum class (``Phase.TURN``) costs several times a global's look-up.
_TURN, _CLAIM, _ROB_KONG, _ENDED = Phase.TURN, Phase.CLAIM, Phase.ROB_KONG, Phase.ENDED
_CONCEALED_KONG = MeldKind.CONCEALED_KONG
_WIN = ActionKind.WIN

SEAT_WINDS = (Tile.EAST, Tile.SOUTH, Tile.WEST, Tile.NORTH)


def seat_wind(seat: int, dealer: int) -> Tile:
    """The dealer sits East; winds follow the turn order."""
    return SEAT_WINDS[(seat - dealer) % 4]


@dataclass(frozen=True)
class DiscardView:
    tile: Tile
    claimed_by: int | None = None
    """The seat that claimed this discard into a meld (drawn marked in the river)."""


@dataclass(frozen=True)
class MeldView:
    kind: MeldKind
    tiles: tuple[Tile | None, ...]
    """Physical tiles; None is a tile shown face down (a concealed kong to others)."""
    from_seat: int | None = None
    claimed: Tile | None = None
    """The claimed tile: drawn sideways, pointing at ``from_seat``."""


@dataclass(frozen=True)
class SeatView:
    seat: int
    wind: Tile
    dealer: bool
    concealed_count: int
    """Tiles in the hand, the drawn tile included: drawn as backs to others."""
    has_drawn: bool
    discards: tuple[DiscardView, ...] = ()
    melds: tuple[MeldView, ...] = ()
    flowers: tuple[Tile, ...] = ()


@dataclass(frozen=True)
class PaymentView:
    seat: int
    amount: Fraction
    """Signed: positive for the winner."""


@dataclass(frozen=True)
class PatternView:
    id: str
    zh: str
    en: str
    value: str
    """The value as the rules page writes it: "1 喇", "1 番", "×2"."""
    value_zh: str
    """The value in Chinese ("3 份" for "3 shares")."""


@dataclass(frozen=True)
class SettlementView:
    """One win's settlement as players see it at the end of the hand."""

    winner: int
    win: str
    """"self_draw", "discard" or "rob_kong"."""
    from_seat: int | None
    concealed: tuple[Tile, ...]
    """The winning hand's concealed tiles before the winning tile, sorted."""
    win_tile: Tile | None
    melds: tuple[MeldView, ...]
    flowers: tuple[Tile, ...]
    patterns: tuple[PatternView, ...]
    value: int
    """Shanghai H in 花; Hangzhou the multiplier F."""
    value_unit: str
    """"花" or "×"."""
    payments: tuple[Fraction, ...]
    liability: str | None
    breakdown: tuple[str, ...]
    charges: tuple[Charge, ...] = ()
    """Each payment as the product of its factors (荒番, 庄闲分, 承包, 吃三口包 …)."""
    base: tuple[tuple[str, int], ...] = ()
    """Shanghai 底花 by its parts when the value counts it (`Settlement.base`)."""


@dataclass(frozen=True)
class ResultView:
    """How a hand ended: its wins (none for a drawn hand) and the net payments."""

    settlements: tuple[SettlementView, ...]
    payments: tuple[Fraction, ...]

    @property
    def drawn(self) -> bool:
        return not self.settlements


@dataclass(frozen=True)
class TableView:
    """The public table: what a spectator sees."""

    rules: str
    hand_number: int
    dealer: int
    streak: int
    """Hangzhou 老庄 (1–3); 1 in Shanghai."""
    huangfan: bool
    """Shanghai: a 荒番 hand."""
    dice: tuple[int, int]
    wall_left: int
    """Tiles left to draw."""
    caishen: Tile | None
    """The wild kind this hand (Hangzhou), else None."""
    turned: Tile | None
    """Hangzhou flip mode: the tile turned and set aside."""
    seats: tuple[SeatView, ...]
    phase: str
    """"turn", "claim", "rob_kong" or "ended"."""
    turn: int
    """Whose turn it is (the discarder while a claim window is open)."""
    deciding: tuple[int, ...]
    """Seats whose decision is awaited now, as far as the viewer may know: in a claim
    window only the viewer itself (`visible_deciding`)."""
    last_discard: tuple[int, int] | None = None
    """(seat, index in that seat's discards) of the discard now in play or last made."""
    result: ResultView | None = None


@dataclass(frozen=True)
class MoveView:
    """One legal move, with what it leads to."""

    action: Action
    label: str
    """Short bilingual label, e.g. "碰 Pong 5m"."""
    waits: tuple[Wait, ...] = NO_WAITS
    """For a discard: the tiles the hand could then win on, with the win's value
    (`engine.game.prospect`): never a tile the rules would refuse the win on."""
    value: int | None = None
    """For a win: what it scores (H or F)."""


@dataclass(frozen=True)
class SeatKnowledge:
    """What a seat knows besides the tiles its view shows: its rule set and 财神 (both
    public), its own melds, the moves it is offered, what a win offered would score and
    its prospect of a win (its own record and the table's public facts).
    A view's advice (its moves' waits, the suggested discard, its own waits and
    shanten) is worked out from this and the view alone (`PlayerView`), so it cannot
    show another seat's concealed tile; self-play checks each of these against the
    view (`engine.selfplay.check_secrecy`)."""

    judge: Judge
    melds: tuple[Meld, ...]
    offered: tuple[Action, ...]
    win_value: int | None
    """The value of the win offered (None: no win offered)."""
    prospect: WinProspect | None = None
    """What the rule set judges its waits by (None: the hand is over, no waits)."""


_KNOWLEDGE = "_knowledge"


class _Advice(Generic[T]):
    """A `PlayerView` field worked out when first read, from the view and its seat's
    `SeatKnowledge` only, then kept with the view. The secrecy checks read none of
    them (the computer player's choice is its own), so views built for the checks
    cost only what they show. Given to the constructor (a sample view), the value is
    the one given; a view built without knowledge and without it has ``default``."""

    def __init__(self, default: T, work: Callable[[PlayerView, SeatKnowledge], T]) -> None:
        self.default = default
        self.work = work
        self.name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, obj: None, owner: type | None = None) -> _Advice[T]: ...

    @overload
    def __get__(self, obj: PlayerView, owner: type | None = None) -> T: ...

    def __get__(self, obj: PlayerView | None, owner: type | None = None) -> T | _Advice[T]:
        if obj is None:
            return self  # the dataclass takes this as the field's default
        values = obj.__dict__
        if self.name in values:
            return values[self.name]  # type: ignore[no-any-return]  # stored by __set__
        knowledge = values.get(_KNOWLEDGE)
        value = self.default if knowledge is None else self.work(obj, knowledge)
        values[self.name] = value
        return value

    def __set__(self, obj: PlayerView, value: T | _Advice[T]) -> None:
        if value is not self:  # left at its default: worked out when read
            obj.__dict__[self.name] = value


def _advised_moves(pv: PlayerView, known: SeatKnowledge) -> tuple[MoveView, ...]:
    offered = known.offered
    waits: dict[Tile, tuple[Wait, ...]] = {}
    if known.prospect is not None and any(a.kind is ActionKind.DISCARD for a in offered):
        # The shape's waits after each discard, then the rule set's judgement of each
        # (most discards leave no shape wait at all, and nothing to judge).
        wild = known.judge.wildcards
        hand = pv.hand
        for tile, shape in discard_waits(hand, known.melds, wild,
                                         known.judge.shapes).items():
            if shape:
                rest = list(hand)
                rest.remove(tile)
                waits[tile] = winning_waits(after_discard(known.prospect, tile, wild),
                                            tuple(rest), known.melds, wild, shape)
    return tuple(_move(a, waits, known.win_value) for a in offered)


def _advised_suggestion(pv: PlayerView, known: SeatKnowledge) -> Tile | None:
    discards = [a.tile for a in known.offered
                if a.kind is ActionKind.DISCARD and a.tile is not None]
    if not discards:
        return None
    return choose_discard(known.judge, pv.hand, known.melds, unseen_in_view(pv),
                          random.Random(0), discards)


def _advised_waits(pv: PlayerView, known: SeatKnowledge) -> tuple[Wait, ...]:
    shape = _own_hand(known.judge, pv.hand, known.melds)[0]
    if not shape or known.prospect is None:
        return NO_WAITS
    return winning_waits(known.prospect, pv.hand, known.melds, known.judge.wildcards, shape)


def _advised_shanten(pv: PlayerView, known: SeatKnowledge) -> int:
    return _own_hand(known.judge, pv.hand, known.melds)[1]


@bounded(maxsize=1024)
def _own_hand(judge: Judge, hand: tuple[Tile, ...], melds: tuple[Meld, ...]
              ) -> tuple[frozenset[Tile], int]:
    """What a hand's shape waits on and its distance from a win (a seat's views until
    it moves ask the same: memoised)."""
    analysis = HandAnalysis(hand, melds, judge.wildcards, judge.shapes)
    return analysis.waits(), judge.shanten(hand, melds)


_MOVES: _Advice[tuple[MoveView, ...]] = _Advice((), _advised_moves)
_WAITS: _Advice[tuple[Wait, ...]] = _Advice(NO_WAITS, _advised_waits)
_SHANTEN: _Advice[int] = _Advice(8, _advised_shanten)
_SUGGESTED: _Advice[Tile | None] = _Advice(None, _advised_suggestion)
_set_attribute = object.__setattr__  # past the frozen view's own ``__setattr__``


@dataclass(frozen=True, init=False)
class PlayerView:
    """All one seat may see: the table plus its own concealed tiles and moves.

    The moves, waits, shanten and suggested discard are advice: each is worked out when
    first read, from this view and the seat's `SeatKnowledge` alone (`_Advice`)."""

    table: TableView
    seat: int
    concealed: tuple[Tile, ...]
    """Sorted, without the drawn tile."""
    drawn: Tile | None
    moves: _Advice[tuple[MoveView, ...]] = _MOVES
    waits: _Advice[tuple[Wait, ...]] = _WAITS
    """With 13 tiles (a kong counting 3): the tiles the seat could win on when they next
    arrive, with the win's value (`engine.game.prospect`)."""
    shanten: _Advice[int] = _SHANTEN
    suggested: _Advice[Tile | None] = _SUGGESTED
    """The discard the computer player would make, when a discard is due."""

    def __init__(self, table: TableView, seat: int, concealed: tuple[Tile, ...],
                 drawn: Tile | None,
                 moves: tuple[MoveView, ...] | _Advice[tuple[MoveView, ...]] = _MOVES,
                 waits: tuple[Wait, ...] | _Advice[tuple[Wait, ...]] = _WAITS,
                 shanten: int | _Advice[int] = _SHANTEN,
                 suggested: Tile | _Advice[Tile | None] | None = _SUGGESTED,
                 knowledge: SeatKnowledge | None = None) -> None:
        """The view, its advice given (a sample view) or, left out, worked out when read
        from ``knowledge`` (what the advice is worked out from, `advice_inputs`; not a
        field). Its dictionary is set whole: a view is made for every seat after every
        move, and the dataclass constructor's ``setattr`` a field cost several times
        as much."""
        values: dict[str, object] = {"table": table, "seat": seat, "concealed": concealed,
                                     "drawn": drawn}
        if moves is not _MOVES:  # given (a sample view); else worked out when read
            values["moves"] = moves
        if waits is not _WAITS:  # given (a sample view); else worked out when read
            values["waits"] = waits
        if shanten is not _SHANTEN:  # given (a sample view); else worked out when read
            values["shanten"] = shanten
        if suggested is not _SUGGESTED:  # given (a sample view); else worked out when read
            values["suggested"] = suggested
        if knowledge is not None:
            values[_KNOWLEDGE] = knowledge
        _set_attribute(self, "__dict__", values)

    @property
    def me(self) -> SeatView:
        return self.table.seats[self.seat]

    @property
    def hand(self) -> tuple[Tile, ...]:
        """The seat's concealed tiles, the drawn one last."""
        return self.concealed if self.drawn is None else (*self.concealed, self.drawn)


def _knowing(knowledge: SeatKnowledge, table: TableView, seat: int,
             concealed: tuple[Tile, ...], drawn: Tile | None) -> PlayerView:
    return PlayerView(table, seat, concealed, drawn, knowledge=knowledge)


def advice_inputs(pv: PlayerView) -> SeatKnowledge | None:
    """The knowledge ``pv``'s advice is worked out from (None: a view given its advice)."""
    knowledge = pv.__dict__.get(_KNOWLEDGE)
    return knowledge if isinstance(knowledge, SeatKnowledge) else None


def unseen_in_view(pv: PlayerView) -> tuple[int, ...]:
    """Copies of each kind the seat has not seen, counted from its view alone: every
    river's unclaimed discards, the melds shown to it (others' concealed kongs not
    counted even when shown at the end, as `engine.ai.unseen_counts`), its own tiles
    and the turned 财神 tile. The same as `unseen_counts` of the state (tested)."""
    # Counted one byte a kind in one int (`_SEEN_ONE`): a sum counts every kind at once.
    # What a seat's view shows of its river and melds is counted once a `SeatView` (a
    # seat that did not move shows the same one in the next state: `_seen_in_seat`).
    seen = sum(map(_SEEN_ONE.__getitem__, pv.concealed))
    if pv.drawn is not None:
        seen += _SEEN_ONE[pv.drawn]
    viewer = pv.seat
    for seat in pv.table.seats:
        owner = seat.seat == viewer
        counted = seat.__dict__.get(_SEEN_BY_OWNER if owner else _SEEN_BY_OTHERS)
        seen += _seen_in_seat(seat, owner) if counted is None else counted
    if pv.table.turned is not None:
        seen += _SEEN_ONE[pv.table.turned]
    # Each byte mapped through one table in C (`bytes.translate`), then read as ints.
    return tuple(seen.to_bytes(NUM_KINDS, "little").translate(_UNSEEN_AFTER))


_SEEN_ONE = tuple(1 << 8 * kind for kind in range(NUM_KINDS))
"""One tile of each kind, as a count of one in that kind's byte. A kind is counted at
most as often as there are tiles (144 < 256), so the bytes never carry into each other."""
_UNSEEN_AFTER = bytes(max(0, 4 - n) for n in range(256))
"""The copies of a kind unseen once ``n`` are seen (byte ``n``: a `bytes.translate` table)."""
_SEEN_BY_OWNER = "_seen_by_owner"
_SEEN_BY_OTHERS = "_seen_by_others"


def _seen_in_seat(seat: SeatView, owner: bool) -> int:
    """What ``seat``'s river and melds show its owner (``owner``) or the others, counted
    as `unseen_in_view` adds it up: the unclaimed discards, and the melds' faces but for
    others' concealed kongs (not counted even when shown at the end, as
    `engine.ai.unseen_counts`). Worked out from the `SeatView` alone and kept with it
    (a frozen record: the same object always counts the same; not a field, so neither
    compared nor shown)."""
    # The river's share is kept with the river's own tuple (a frozen part of the view):
    # a seat that only drew shows a new `SeatView` with the same river.
    river = seat.discards
    counted = _RIVER_SEEN.find(river, None) if river else 0
    if counted is None:
        counted = _RIVER_SEEN.keep(river, None, sum(
            [_SEEN_ONE[d.tile] for d in river if d.claimed_by is None]))
    if seat.melds:
        counted += sum([_SEEN_ONE[t] for meld in seat.melds
                        if meld.kind is not _CONCEALED_KONG or owner
                        for t in meld.tiles if t is not None])
    seat.__dict__[_SEEN_BY_OWNER if owner else _SEEN_BY_OTHERS] = counted
    return counted


_RIVER_SEEN: IdentityMemo[int] = IdentityMemo("engine.view.river_seen", 1024)


# ---------------------------------------------------------------------------
# Building views from a hand's state


def spectator_view(state: HandState, hand_number: int = 1) -> TableView:
    """The public table: no concealed tile of anyone."""
    # Built once a state: every seat's view is this table but for its own seat.
    return state.remembered((_PUBLIC, hand_number), lambda: _public_table(state, hand_number))


def view(state: HandState, seat: int, hand_number: int = 1) -> PlayerView:
    """Everything ``seat`` may see now, with its legal moves and what they lead to (the
    advice worked out when read: `PlayerView`). One of `views` when those are made;
    else only this seat's (the table service asks for one seat at a time)."""
    if not 0 <= seat < len(state.seats):
        raise IndexError(f"no seat {seat}")
    every = state.remembered_answer((_VIEWS, hand_number))
    if every is not None:
        return every[seat]  # type: ignore[index, no-any-return]  # remembered by `views`
    alone: dict[int, PlayerView] = state.remembered((_ALONE, hand_number), dict)
    mine = alone.get(seat)
    if mine is None:
        mine = alone[seat] = _view_of(state, seat, spectator_view(state, hand_number),
                                      _seats_shown(state)[seat], deciding_seats(state))
    return mine


def views(state: HandState, hand_number: int = 1) -> tuple[PlayerView, ...]:
    """Every seat's view, made together once a state (self-play's secrecy checks ask
    for all four after every action): the same views `view` gives."""
    return state.remembered((_VIEWS, hand_number), lambda: _views(state, hand_number))


def _views(state: HandState, hand_number: int) -> tuple[PlayerView, ...]:
    # What every seat's view shares is looked up once; a seat's view already made on
    # its own (`view`) is kept, so a state has one view a seat.
    public = spectator_view(state, hand_number)
    shown = _seats_shown(state)
    alone = state.remembered_answer((_ALONE, hand_number))
    if alone is None and state.phase is _TURN:
        return _turn_views(state, public, shown)
    deciding = deciding_seats(state)
    made: dict[int, PlayerView] = alone if isinstance(alone, dict) else {}
    return tuple([made.get(seat) or _view_of(state, seat, public, mine, deciding)
                  for seat, mine in enumerate(shown)])


def _turn_views(state: HandState, public: TableView, shown: tuple[_SeatShown, ...]
                ) -> tuple[PlayerView, ...]:
    """The four views on a turn (most states), made as `_view_of` makes them: only the
    seat on turn has moves; every other seat knows only what it knows idle, and sees
    the public table itself unless its own seat shows it more (a concealed kong)."""
    turn = state.turn
    made = []
    for seat, mine in enumerate(shown):
        if seat == turn or mine.own is not mine.public:
            made.append(_view_of(state, seat, public, mine, public.deciding))
        else:
            made.append(_knowing(_idle_now(state, seat, mine.idle), public, seat,
                                 mine.concealed, mine.drawn))
    return tuple(made)


def _view_of(state: HandState, seat: int, public: TableView, shown: _SeatShown,
             deciding: tuple[int, ...]) -> PlayerView:
    """``seat``'s view: the public table but for what is its own (``shown``)."""
    if seat in deciding:
        # Only a deciding seat has moves (`legal_actions`; the secrecy checks compare).
        visible = deciding if state.phase is _TURN else (seat,)
        offered = legal_actions(state, seat)
        # (``in`` over the kinds: the scan runs in C, not a generator's frames.)
        win_value = _win_value(state, seat) if _WIN in map(_KIND_OF, offered) \
            else None
        knowledge = make(SeatKnowledge, {"judge": shown.idle.judge,
                                              "melds": shown.idle.melds,
                                              "offered": offered, "win_value": win_value,
                                              "prospect": prospect_of(state, seat)})
    else:
        # The others know only the hand's judge and their melds, shared between states.
        visible = deciding if state.phase is _TURN else ()
        knowledge = _idle_now(state, seat, shown.idle)
    table = public if shown.own is shown.public and visible == public.deciding \
        else _viewer_table(public, seat, shown.own, visible)
    return _knowing(knowledge, table, seat, shown.concealed, shown.drawn)


_KIND_OF = attrgetter("kind")
_VIEWS = "views"
_ALONE = "views made alone"


def _viewer_table(public: TableView, viewer: int, own: SeatView, deciding: tuple[int, ...]
                  ) -> TableView:
    """The public table but for the viewer's own seat (its concealed kongs face up)
    and its own decision in a claim window."""
    seats = (*public.seats[:viewer], own, *public.seats[viewer + 1:])
    return replace(public, seats=seats, deciding=deciding)


def _public_table(state: HandState, hand_number: int) -> TableView:
    return make(TableView, {
        "rules": state.rules, "hand_number": hand_number, "dealer": state.dealer,
        "streak": state.streak, "huangfan": state.huangfan, "dice": state.dice,
        "wall_left": state.wall_remaining, "caishen": state.wildcards.joker,
        "turned": state.flipped, "seats": tuple([shown.public for shown in _seats_shown(state)]),
        # (The member's `_value_`: `Phase.value` and a dict keyed by the member each run
        # a Python-level function a call.)
        "phase": state.phase._value_, "turn": state.turn,
        # `visible_deciding(state, None)`: a turn is everyone's to know, a claim no one's.
        "deciding": deciding_seats(state) if state.phase is _TURN else (),
        "last_discard": _last_discard(state), "result": _result(state)})


def visible_deciding(state: HandState, viewer: int | None = None) -> tuple[int, ...]:
    """Whose decision the hand waits for, as ``viewer`` (None: the public) may know it.

    A turn is everyone's to know. In a claim window only the viewer's own decision is
    shown: who else is asked depends on what they hold (a seat asked only to win is
    waiting on that very tile), so the others learn only that the discard may be
    claimed, the same whoever may claim it and however."""
    return _visible(deciding_seats(state), state.phase is _TURN, viewer)


def _visible(deciding: tuple[int, ...], on_turn: bool, viewer: int | None
             ) -> tuple[int, ...]:
    if on_turn:
        return deciding
    return (viewer,) if viewer in deciding else ()


class _SeatShown(NamedTuple):
    """What the views show of one seat: its `SeatView` as the others see it and as
    it sees itself (the same but for its concealed kongs, face up), its own concealed
    tiles (sorted; the drawn tile apart while it is the seat's to play), and what it
    knows while it has no move to make (the hand's judge and its own melds)."""

    public: SeatView
    own: SeatView
    concealed: tuple[Tile, ...]
    drawn: Tile | None
    idle: SeatKnowledge


def _seats_shown(state: HandState) -> tuple[_SeatShown, ...]:
    # Asked by the public table and by each seat's view: worked out once a state.
    return state.remembered(_SHOWN, lambda: _all_seats_shown(state))


_PUBLIC = "public table"
_SHOWN = "seats shown"


def _all_seats_shown(state: HandState) -> tuple[_SeatShown, ...]:
    # A seat that did not move is the same record in the next state: what it shows is
    # worked out once (and the secrecy checks compare the very same objects). Keyed by
    # the seat record and what else it is shown by: its place, the dealer, whether its
    # drawn tile is apart, whether the hand is over, and which judge (an entry keeps
    # its judge alive in its knowledge, so no other judge can have that id meanwhile).
    drawing = state.turn if state.phase is _TURN else None
    ended = state.phase is _ENDED
    dealer = state.dealer
    judge = remembered_judge(state)
    common = id(judge) << 6 | dealer << 3 | ended << 2
    shown = []
    for i, s in enumerate(state.seats):
        has_drawn = i == drawing and s.drawn is not None
        detail = common | has_drawn << 5 | i
        seat = _SEATS_SHOWN.find(s, detail)
        if seat is None:
            seat = _SEATS_SHOWN.keep(s, detail, _seat_shown(s, i, dealer, has_drawn, ended,
                                                             judge))
        shown.append(seat)
    return tuple(shown)


def _seat_shown(s: SeatState, i: int, dealer: int, has_drawn: bool, ended: bool,
                judge: Judge) -> _SeatShown:
    kong = bool(s.melds) and _CONCEALED_KONG in map(_KIND_OF, s.melds)  # in C
    public = _seat_view(s, i, dealer, has_drawn, shown=ended and kong)
    own = _seat_view(s, i, dealer, has_drawn, shown=True) if kong and not ended else public
    drawn = s.drawn if has_drawn else None
    concealed = tuple(sorted(s.without(drawn) if drawn is not None else s.hand))
    # (The tuple made directly: the named tuple's own ``__new__`` is a Python frame.)
    return _new_tuple(_SeatShown, (public, own, concealed, drawn,
                                   _idle_knowledge(judge, s.melds)))


_new_tuple = tuple.__new__


def _idle_knowledge(judge: Judge, melds: tuple[Meld, ...]) -> SeatKnowledge:
    """What a seat without moves knows: the same record while its melds and the hand's
    judge are (a seat that only drew or discarded keeps it)."""
    # Keyed by which melds record and which judge: an entry keeps both alive (the melds
    # as the memo's key, the judge in the knowledge), so neither id is another's.
    known = _IDLE_KNOWLEDGE.find(melds, id(judge))
    return known if known is not None else _IDLE_KNOWLEDGE.keep(melds, id(judge), make(
        SeatKnowledge, {"judge": judge, "melds": melds, "offered": (), "win_value": None,
                        "prospect": None}))


def _idle_now(state: HandState, seat: int, idle: SeatKnowledge) -> SeatKnowledge:
    """``idle`` (a seat's knowledge without moves, shared between states) with its
    prospect in ``state``, whose table its waits are judged on: one record a state and
    seat, whether the seat's view is made alone or with the others'."""
    return state.remembered(_IDLE_NOW[seat], lambda: make(SeatKnowledge, {
        "judge": idle.judge, "melds": idle.melds, "offered": (), "win_value": None,
        "prospect": prospect_of(state, seat)}))


_IDLE_NOW = tuple(f"idle knowledge {seat}" for seat in range(4))


_SEATS_SHOWN: IdentityMemo[_SeatShown] = IdentityMemo("engine.view.seats_shown", 1024)
_IDLE_KNOWLEDGE: IdentityMemo[SeatKnowledge] = IdentityMemo(
    "engine.view.idle_knowledge", 1024)
_RIVERS: IdentityMemo[tuple[DiscardView, ...]] = IdentityMemo("engine.view.rivers", 1024)
_MELD_ROWS: IdentityMemo[tuple[MeldView, ...]] = IdentityMemo("engine.view.meld_rows", 1024)


def _seat_view(s: SeatState, i: int, dealer: int, has_drawn: bool, shown: bool) -> SeatView:
    return make(SeatView, {
        "seat": i, "wind": SEAT_WINDS[(i - dealer) % 4], "dealer": i == dealer,
        "concealed_count": len(s.hand), "has_drawn": has_drawn,
        "discards": _river(s.discards), "melds": _meld_row(s.melds, shown),
        "flowers": s.flowers})


def _river(discards: tuple[Discard, ...]) -> tuple[DiscardView, ...]:
    # A seat's discards are one tuple until it discards again (or one is claimed): a
    # seat that only drew, or whose turn ended, shows the same river.
    if not discards:
        return ()
    river = _RIVERS.find(discards, None)
    return river if river is not None else _RIVERS.keep(discards, None, tuple(
        [_DISCARD_VIEWS[d.tile, d.claimed_by] for d in discards]))


def _meld_row(melds: tuple[Meld, ...], shown: bool) -> tuple[MeldView, ...]:
    if not melds:
        return ()
    row = _MELD_ROWS.find(melds, shown)
    return row if row is not None else _MELD_ROWS.keep(
        melds, shown, tuple([_meld(m, shown) for m in melds]))


# Every discard as anyone sees it: a value of its tile and claimer, made once.
_DISCARD_VIEWS = {(tile, by): DiscardView(tile, by)
                  for tile in Tile for by in (None, *range(len(SEAT_WINDS)))}


def _meld(meld: Meld, shown: bool) -> MeldView:
    hidden = meld.kind is _CONCEALED_KONG and not shown
    tiles: tuple[Tile | None, ...] = (None,) * len(meld.tiles) if hidden else meld.tiles
    return MeldView(meld.kind, tiles, meld.from_seat, meld.claimed)


def _last_discard(state: HandState) -> tuple[int, int] | None:
    if state.window is not None and state.phase is _CLAIM:
        giver = state.window.from_seat
    elif state.phase is _TURN:
        giver = (state.turn + 3) % 4
    else:
        return None
    n = len(state.seats[giver].discards)
    return (giver, n - 1) if n else None


def _result(state: HandState) -> ResultView | None:
    if state.result is None:
        return None
    return ResultView(tuple(settlement_view(state, r) for r in state.result.wins),
                      state.result.payments)


def settlement_view(state: HandState, record: WinRecord) -> SettlementView:
    ctx, result = record.context, record.settlement
    patterns = state.ruleset.patterns
    return SettlementView(
        winner=record.winner, win=record.win.value, from_seat=record.from_seat,
        concealed=tuple(sorted(ctx.concealed)), win_tile=ctx.win_tile,
        melds=tuple(_meld(m, shown=True) for m in ctx.melds), flowers=ctx.flowers,
        patterns=tuple(PatternView(p, patterns[p].zh, patterns[p].en, patterns[p].value,
                                   patterns[p].value_zh)
                       for p in result.patterns),
        value=result.value, value_unit=state.ruleset.value_unit,
        payments=result.payments, liability=result.liability, breakdown=result.breakdown,
        charges=result.charges, base=result.base)


_LABELS = {
    ActionKind.DISCARD: "打 Discard", ActionKind.CHI: "吃 Chi", ActionKind.PONG: "碰 Pong",
    ActionKind.KONG: "杠 Kong", ActionKind.ADDED_KONG: "加杠 Add to kong",
    ActionKind.CONCEALED_KONG: "暗杠 Concealed kong", ActionKind.WIN: "胡 Win",
    ActionKind.PASS: "过 Pass",
}


_DISCARD_LABELS = {tile: f"{_LABELS[ActionKind.DISCARD]} {tile.notation}" for tile in Tile}


def _move(action: Action, after_discard: dict[Tile, tuple[Wait, ...]],
          win_value: int | None) -> MoveView:
    """``after_discard``: the waits each discard leaves (none when it has no entry)."""
    if action.kind is ActionKind.DISCARD and action.tile is not None:
        # Most moves are discards (about fourteen after every draw): labels made once.
        return MoveView(action, _DISCARD_LABELS[action.tile],
                        after_discard.get(action.tile, NO_WAITS))
    label = _LABELS[action.kind]
    if action.kind is ActionKind.WIN:
        return MoveView(action, label, NO_WAITS, win_value)
    if action.tiles or action.tile is not None:
        shown = action.tiles if action.tiles else (action.tile,)
        label += " " + format_tiles(t for t in shown if t is not None)
    return MoveView(action, label)


def _win_value(state: HandState, seat: int) -> int | None:
    won = _win_record(state, seat)
    return won.settlement.value if won is not None else None


def _win_record(state: HandState, seat: int) -> WinRecord | None:
    if state.phase is _TURN:
        if len(state.seats[seat].flowers) == 8:
            return eight_flowers(state, seat)
        return remembered_self_draw(state, seat)
    window = state.window
    if window is None:
        return None
    kind = WinKind.ROB_KONG if state.phase is _ROB_KONG else WinKind.DISCARD
    return judge(state, seat, kind, window.tile, window.from_seat)


# ---------------------------------------------------------------------------
# A finished hand's replay: the table with hands open


@dataclass(frozen=True)
class OpenView:
    """A table with hands shown face up, for the replay of a finished hand: every seat's
    (``viewer`` None: everything open) or only ``viewer``'s, as it saw the hand then
    (`open_view`). Never made for a hand in play: the service replays finished hands
    only."""

    table: TableView
    """The public table, but for the seats whose hands are open: their concealed kongs
    face up."""
    hands: tuple[tuple[Tile, ...] | None, ...]
    """Each seat's concealed tiles, sorted, without the drawn tile; None: not shown."""
    drawn: tuple[Tile | None, ...]
    """Each shown seat's drawn tile while it is its to play (None otherwise)."""
    viewer: int | None = None


def open_view(state: HandState, hand_number: int = 1, viewer: int | None = None
              ) -> OpenView:
    """``state`` with every hand open (``viewer`` None), or as ``viewer`` saw it: its
    own hand and concealed kongs, the others' as the public saw them (`view`), and the
    decision in front of it alone marked in a claim window."""
    shown = _seats_shown(state)
    if viewer is not None:
        mine = view(state, viewer, hand_number)
        hidden: tuple[Tile, ...] | None = None
        return OpenView(mine.table,
                        tuple([mine.concealed if s == viewer else hidden
                               for s in range(len(shown))]),
                        tuple([mine.drawn if s == viewer else None
                               for s in range(len(shown))]), viewer)
    public = spectator_view(state, hand_number)
    table = replace(public, seats=tuple([s.own for s in shown]),
                    deciding=deciding_seats(state) if state.phase is not _ENDED else ())
    return OpenView(table, tuple([s.concealed for s in shown]),
                    tuple([s.drawn for s in shown]))
