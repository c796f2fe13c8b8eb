"""The state of one hand: immutable values, replaced (never mutated) by each action."""

from __future__ import annotations

from bisect import insort
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field, fields
from enum import Enum
from fractions import Fraction
from functools import cached_property
from operator import itemgetter
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from engine import rules
from engine.analysis import ShapeRules, Wildcards
from engine.game.actions import Action
from engine.game.held import HeldTiles, plays_table
from engine.melds import Meld, MeldKind
from engine.rules import RuleSet
from engine.rules.common import (
    SEATS,
    ChainStep,
    Replacement,
    Settlement,
    TableOptions,
    WinContext,
    WinKind,
    zero_claims,
)
from engine.tiles import Tile

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

_Derived = tuple[tuple[str, frozenset[str]], ...]
_FIELDS: dict[type, frozenset[str]] = {}
"""A record type's field names (`_fields`), for `replace` and `make`."""
ANSWERS = _ANSWERS = "_answers"
"""Where a state keeps what was already asked of it (`HandState.remembered`)."""
HELD = _HELD = "_held"
"""Where a seat keeps what its concealed tiles amount to (`SeatState.held`)."""
_DERIVED: dict[type, _Derived] = {}
"""A record type's derived values (cached properties) and the fields each is computed
from: a copy (`copied`) drops one when one of those fields changed, and keeps it as
the copy's otherwise. (A seat's `HeldTiles` is not one: a copy keeps it while its hand
and melds are the same, `SeatState.held`.)"""

_UNASKED = object()
"""What `HandState.remembered` finds for a question not asked yet."""

T = TypeVar("T", bound="DataclassInstance")
V = TypeVar("V")


def replace(record: T, **changes: object) -> T:
    """The one way a record of this package is copied with changes: `dataclasses.replace`
    without re-running ``__init__`` (none of the records has a ``__post_init__``, and
    every move makes a few copies: the standard one was a third of the cost of replaying
    a log). The changes must be fields; a derived value (a state's 财神, rule set and
    table of what each tile plays as) is dropped when a field it is computed from
    changes, and kept as the copy's otherwise; what the record was asked
    (`HandState.remembered`) is not. A seat's `HeldTiles` is carried over while its hand
    and melds are (`SeatState.held`)."""
    cls = type(record)
    names = _FIELDS.get(cls) or _fields(cls)
    if not names.issuperset(changes):
        unknown = sorted(set(changes) - names)
        raise TypeError(f"{cls.__name__} has no field {unknown[0]!r}")
    values = record.__dict__ | changes
    if values.get(_HELD) is not None and ("hand" in changes or "melds" in changes):
        values[_HELD] = None  # a seat's counts, of its old tiles: not the copy's
    return copied(record, values)


def copied(record: T, values: dict[str, object]) -> T:
    """`replace`, told the copy's whole dictionary: ``values`` is the record's own
    dictionary copied (``record.__dict__.copy()``) with the changed fields set in it, and
    the copy keeps it. For the copies a move makes (`SeatState.after`, a discard, a
    draw, an answer), which set their changes in the copy itself rather than gather
    them to be merged into it; a seat's counts are theirs to keep right (only
    `SeatState.after` changes a seat's tiles so, and moves its counts with them). The
    copy is checked as `replace` checks it: a name that is no field grows the
    dictionary beyond the record's (a record is made with every field), which is
    refused; derived values are dropped when a field they are computed from changed,
    and what the record was asked is emptied."""
    old = record.__dict__
    if len(values) > len(old):  # (the record may have gained derived values since)
        unknown = sorted(set(values) - set(old))
        raise TypeError(f"{type(record).__name__} has no field {unknown[0]!r}")
    cls = type(record)
    inputs = _INPUTS.get(cls)
    if inputs is not None:  # a record with derived values (`_DERIVED`: a hand state)
        if inputs(values) != inputs(old):
            _drop_derived(_DERIVED[cls], values, old)
        if _ANSWERS in values:
            # Answers about the old record, not the new one: emptied, not removed (a new
            # key would regrow the copy's table when this record is asked in turn).
            values[_ANSWERS] = None
    new = _new(cls)
    _set_attribute(new, "__dict__", values)
    return new


def unshared(record: T) -> T:
    """``record`` with a dictionary of its own: a copy whose dictionary holds its keys
    itself, where the constructor's record shares them with every record of its class
    made so (Python's key-sharing dictionaries). A move reads a dozen fields of a state
    and of its seats, and Python 3.11 specialises such a read only on a dictionary of
    its own; a copy's dictionary is a copy of its record's, so a hand dealt so (`deal`)
    keeps them for all its states."""
    return copied(record, dict(record.__dict__))


def _drop_derived(derived: _Derived, values: dict[str, object], old: dict[str, object]
                  ) -> None:
    """Drop from a copy's ``values`` each derived value some field it is computed from
    changed (`copied`)."""
    for name, computed_from in derived:
        if any(values[field] is not old[field] for field in computed_from):
            values.pop(name, None)


def make(cls: type[T], values: dict[str, object]) -> T:
    """The one way a record of this package is made without its ``__init__``:
    ``cls(**values)`` with every field given, without the dataclass ``__init__``'s
    per-field ``setattr`` (several times the cost: the records made on every move and
    every view). ``values`` is the caller's own dictionary, which the record keeps."""
    names = _FIELDS.get(cls) or _fields(cls)
    if values.keys() != names:  # (a dictionary's keys against a set: no set made)
        raise TypeError(f"{cls.__name__} needs exactly the fields {sorted(names)}")
    new = _new(cls)
    _set_attribute(new, "__dict__", values)
    return new


def _fields(cls: type) -> frozenset[str]:
    """A record type's field names, kept once."""
    if hasattr(cls, "__post_init__"):  # would be skipped: made by its constructor only
        raise TypeError(f"{cls.__name__} is made by its constructor")
    names = _FIELDS[cls] = frozenset(f.name for f in fields(cls))
    return names


_new = object.__new__
_set_attribute = object.__setattr__  # past the frozen records' own ``__setattr__``


class Phase(Enum):
    TURN = "turn"
    """Seat ``turn`` holds 14 (a kong counting 3): win, kong or discard."""
    CLAIM = "claim"
    """The other seats answer the discard in ``window``."""
    ROB_KONG = "rob_kong"
    """The other seats may rob the added kong in ``window`` (抢杠)."""
    ENDED = "ended"


@dataclass(frozen=True)
class Discard:
    """A discard in its owner's row; ``claimed_by`` is the seat that melded it."""

    tile: Tile
    claimed_by: int | None = None


@dataclass(frozen=True)
class SeatState:
    """One seat. ``hand`` (the concealed tiles) is kept sorted; ``drawn`` is the tile
    drawn in this turn (None after a chi/pong, and in the dealer's opening turn).
    ``chain`` is the Hangzhou chain so far (oldest first); ``claimed_turn`` marks a turn
    that began with a chi or pong, which is outside the chain: its 飘 is not recorded,
    and its kongs (the whole chain then) count only for a plain win's 杠开.
    ``passed_wins`` / ``passed_pongs`` hold what the seat passed since its last
    draw (漏胡 / 漏碰)."""

    hand: tuple[Tile, ...] = ()
    melds: tuple[Meld, ...] = ()
    discards: tuple[Discard, ...] = ()
    flowers: tuple[Tile, ...] = ()
    drawn: Tile | None = None
    chain: tuple[ChainStep, ...] = ()
    claimed_turn: bool = False
    passed_wins: frozenset[Tile] = frozenset()
    passed_pongs: frozenset[Tile] = frozenset()
    _held: ClassVar[HeldTiles | None] = None
    """`held`, once counted: a record's own (``HELD``), this when it has none (so that
    it is read as an attribute, the quickest read)."""

    @property
    def chis(self) -> int:
        return sum(1 for m in self.melds if m.kind is MeldKind.CHI)

    def holds(self, tiles: tuple[Tile, ...]) -> bool:
        hand = list(self.hand)
        for tile in tiles:
            if tile not in hand:
                return False
            hand.remove(tile)
        return True

    def without(self, *tiles: Tile) -> tuple[Tile, ...]:
        hand = list(self.hand)
        for tile in tiles:
            hand.remove(tile)
        return tuple(hand)

    def held(self, wildcards: Wildcards, shapes: ShapeRules) -> HeldTiles:
        """The seat's concealed tiles counted under the hand's 财神, worked out once
        per hand and melds: kept in the record (``HELD``), and in its copies for as long
        as they have the same hand and melds (`replace` drops them from a copy whose
        hand or melds change, and `after` moves them tile by tile); never compared,
        stored or pickled."""
        held = self._held
        if held is None or held.wildcards is not wildcards or held.shapes is not shapes:
            held = self.__dict__[_HELD] = HeldTiles.of(self.hand, self.melds, wildcards,
                                                       shapes)
        return held

    def after(self, tile: Tile, step: int, values: dict[str, object]) -> SeatState:
        """The seat after its concealed tiles gain ``tile`` (``step`` 1: a draw, the tile
        put in its place, the hand being kept in tile order) or lose it (-1: a discard):
        `copied`, ``values`` being the copy's dictionary with the caller's changes to
        the seat's other fields (this record's copied, which the hand is set in), and
        the `HeldTiles` already worked out brought up to date from the old ones
        (`HeldTiles.moved`) rather than counted again."""
        hand = list(self.hand)
        if step == 1:
            insort(hand, tile)
        else:
            hand.remove(tile)
        values["hand"] = concealed = tuple(hand)
        held = self._held
        if held is not None:
            values[_HELD] = held.moved(tile, concealed, step)
        return copied(self, values)

    def __getstate__(self) -> dict[str, object]:
        state = dict(self.__dict__)
        state.pop(_HELD, None)
        return state


@dataclass(frozen=True)
class ClaimWindow:
    """A window on ``tile`` given by ``from_seat`` (a discard, or an added kong to rob).

    ``options[s]`` are the claims seat s may make (empty: s is not asked);
    ``answers[s]`` is what s chose (None: undecided). ``last`` marks Hangzhou's last,
    win-only window. ``opened_at`` is the state's ``seq`` when it opened.
    """

    tile: Tile
    from_seat: int
    options: tuple[tuple[Action, ...], ...]
    answers: tuple[Action | None, ...] = (None,) * SEATS
    last: bool = False
    opened_at: int = 0

    @property
    def asked(self) -> tuple[int, ...]:
        return tuple(s for s in range(SEATS) if self.options[s])

    @property
    def undecided(self) -> tuple[int, ...]:
        return tuple(s for s in self.asked if self.answers[s] is None)


@dataclass(frozen=True)
class WinRecord:
    """One win: who, how, on which tile, the full context it was judged on and the
    settlement (payments per seat)."""

    winner: int
    win: WinKind
    from_seat: int | None
    win_tile: Tile | None
    context: WinContext
    settlement: Settlement


@dataclass(frozen=True)
class HandResult:
    """How the hand ended: the wins (none for a drawn hand) and the net payments."""

    wins: tuple[WinRecord, ...] = ()
    payments: tuple[Fraction, ...] = (Fraction(0),) * SEATS

    @property
    def drawn(self) -> bool:
        return not self.wins

    @classmethod
    def of(cls, wins: tuple[WinRecord, ...]) -> HandResult:
        totals = [Fraction(0)] * SEATS
        for record in wins:
            for seat, amount in enumerate(record.settlement.payments):
                totals[seat] += amount
        return cls(wins, tuple(totals))


@dataclass(frozen=True)
class HandState:
    """Everything about one hand. The wall is kept whole; ``front`` tiles have been drawn
    from its front and ``back`` taken from its back (replacements, the turned 财神,
    burnt tiles), so the live wall is ``wall[front:len(wall) - back]``."""

    rules: str
    options: TableOptions
    wall: tuple[Tile, ...]
    dealer: int
    dice: tuple[int, int]
    streak: int
    huangfan: bool
    seats: tuple[SeatState, ...]
    front: int = 0
    back: int = 0
    flipped: Tile | None = None
    set_aside: tuple[Tile, ...] = ()
    """Out of play: the turned 财神 tile and the tiles burnt after Hangzhou kongs."""
    phase: Phase = Phase.TURN
    turn: int = 0
    window: ClaimWindow | None = None
    replacement: Replacement | None = None
    """What the tile drawn in this turn replaced (杠开 / flower), None for a plain draw."""
    first_go_round: bool = True
    claims: tuple[tuple[int, ...], ...] = field(default_factory=zero_claims)
    zhua_da: int | None = None
    """Hangzhou 抓打: the seat whose 财神 discard restricts the others until it draws."""
    result: HandResult | None = None
    seq: int = 0
    """How many actions have been applied."""
    _answers: ClassVar[dict[Hashable, Any] | None] = None
    """What was asked of the state (`remembered`): its own (``ANSWERS``), this when it
    has none (so that it is read as an attribute, the quickest read)."""

    @cached_property
    def ruleset(self) -> RuleSet:  # (`rules` here is the field, not the module)
        # Asked a dozen times a move; kept, like `wildcards`, until `rules` changes.
        return rules.get(self.rules)

    @cached_property
    def wildcards(self) -> Wildcards:
        return self.ruleset.wildcards(self.options, self.flipped)

    @cached_property
    def plays(self) -> tuple[Tile | None, ...]:
        """What each tile plays as (`Wildcards.plays_as`; None: a 财神), by tile: asked
        of every discard (`could_claim`); kept, like `wildcards`, until it may change."""
        return plays_table(self.wildcards)

    @property
    def wall_remaining(self) -> int:
        """Tiles still to be drawn."""
        return len(self.wall) - self.front - self.back

    @property
    def live_wall(self) -> tuple[Tile, ...]:
        return self.wall[self.front:len(self.wall) - self.back]

    @property
    def opening(self) -> bool:
        """The dealer's first turn, on the 14 dealt tiles (天胡 may be declared)."""
        return (self.first_go_round and self.phase is Phase.TURN and self.turn == self.dealer
                and not self.seats[self.dealer].discards)

    def seat(self, seat: int) -> SeatState:
        return self.seats[seat]

    def remembered(self, question: Hashable, answer: Callable[[], V]) -> V:
        """``answer()``, computed once per state: a state never changes, and its legal
        moves, self-draw and the like are asked several times a move (the views, the
        computer player, `apply`). Kept with the state, so they go when it goes; never
        copied to the next state (`replace`), compared or pickled."""
        answers = self._answers
        if answers is None:
            answers = self.__dict__[_ANSWERS] = {}
        # `get`, not `try` (most questions are asked first on a new state, and a caught
        # KeyError costs more than the look-up).
        known = answers.get(question, _UNASKED)
        if known is _UNASKED:
            known = answers[question] = answer()
        return known  # type: ignore[no-any-return]  # keyed per question

    def remembered_answer(self, question: Hashable) -> object | None:
        """What `remembered` holds for ``question`` on this state, or None."""
        answers = self._answers
        return None if answers is None else answers.get(question)

    def __getstate__(self) -> dict[str, object]:
        state = dict(self.__dict__)
        state.pop(_ANSWERS, None)
        state.pop("ruleset", None)  # the registry's one, looked up again
        state.pop("plays", None)  # worked out again from `wildcards`
        return state

    def with_seat(self, seat: int, **changes: object) -> HandState:
        seats = list(self.seats)
        seats[seat] = replace(seats[seat], **changes)
        return replace(self, seats=tuple(seats))

    def tile_count(self) -> int:
        """Every physical tile, wherever it is: 136 (Hangzhou) or 144 (Shanghai)."""
        in_seats = sum(len(s.hand) + len(s.flowers) + sum(len(m.tiles) for m in s.melds)
                       + sum(1 for d in s.discards if d.claimed_by is None)
                       for s in self.seats)
        return self.wall_remaining + len(self.set_aside) + in_seats


_DERIVED[HandState] = (("wildcards", frozenset(("rules", "options", "flipped"))),
                       ("plays", frozenset(("rules", "options", "flipped"))),
                       ("ruleset", frozenset(("rules",))))
_INPUTS: dict[type, Callable[[dict[str, object]], object]] = {
    cls: itemgetter(*sorted(frozenset[str]().union(*(fields for _, fields in derived))))
    for cls, derived in _DERIVED.items()}
"""For each record type with derived values, the fields they are computed from, read
out of a record's dictionary together (`copied` compares the copy's with the old)."""
