"""What a seat's concealed tiles amount to under the hand's 财神: derived from the seat's
hand and melds alone, kept with the seat record (`SeatState.held`) until its hand or
melds change, and never stored. A claim window asks it of three seats per discard, and
a seat that did not move is the same record from one state to the next.

The shape questions ("complete?", "one tile from complete?", "won on this tile?") are
answered from the cost of each of the hand's four groups (three suits, honours): the
fewest 财神 that turn the group's tiles into melds, without and with the pair. A draw
or a discard changes one group, so only that group's cost is looked up again; the
answers are then a few additions (tests/game/test_held.py holds them against
`engine.analysis`'s `is_winning` and `is_winning_with`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple, TypeVar

from engine.analysis import ShapeRules, Wildcards, is_all_melds, is_complete
from engine.melds import Meld
from engine.memo import IdentityMemo, bounded
from engine.tiles import NUM_KINDS, Tile

_HONOURS_START = Tile.EAST
"""The first kind that is no suit's (the suits' 27 kinds come first)."""
_GROUPS = ((0, 9, False), (9, 18, False), (18, 27, False), (27, 34, True))
"""Each group's kinds (from, to) and whether they are honours (no runs)."""
_GROUP_OF = tuple(kind // 9 if kind < _HONOURS_START else 3 for kind in range(NUM_KINDS))

V = TypeVar("V")
Costs = tuple[tuple[int, int], ...]
"""`group_cost` of each of a hand's four groups."""

_PLACE = tuple(3 * (kind - _GROUPS[_GROUP_OF[kind]][0]) for kind in range(NUM_KINDS))
"""Where a kind's count sits in its group's packed key: three bits a kind (a count
never reaches eight)."""


def packed(counts: Sequence[int], group: int) -> int:
    """A group's counts as one int (`_PLACE`): a draw or a discard adds to it or takes
    from it, and it is a cheap key to look the group's cost up by."""
    lo, hi, _ = _GROUPS[group]
    return sum(n << _PLACE[kind] for kind, n in enumerate(counts[lo:hi], lo))


@bounded(maxsize=1 << 13)
def group_cost(key: int, honours: bool) -> tuple[int, int]:
    """The fewest 财神 that turn one group's tiles into melds, without and with the
    pair. ``key``: the group's `packed` counts (a suit's nine kinds, or the seven
    honours).

    Asked of `is_all_melds` / `is_complete` with the group alone in the hand: a cost
    is always the tiles' count short of a whole number of melds (and pair), so the
    fewest 财神 they accept is the cost itself."""
    counts = [0] * NUM_KINDS
    start = _HONOURS_START if honours else 0
    for place in range(NUM_KINDS - _HONOURS_START if honours else 9):
        counts[start + place] = key >> 3 * place & 7
    tiles = sum(counts)
    # Each tile alone takes at most two 财神 to a pong, the pair at most two more.
    melds = next(j for j in range(-tiles % 3, 2 * tiles + 1, 3) if is_all_melds(counts, j))
    pair = next(j for j in range((2 - tiles) % 3, 2 * tiles + 3, 3) if is_complete(counts, j))
    return melds, pair


def fewest_jokers(costs: Sequence[tuple[int, int]]) -> int:
    """Fewest 财神 that make the whole hand melds and one pair: the pair in one of the
    groups (its cost with the pair instead of without), or (two 财神) on its own."""
    (m0, p0), (m1, p1), (m2, p2), (m3, p3) = costs
    return m0 + m1 + m2 + m3 + min(p0 - m0, p1 - m1, p2 - m2, p3 - m3, 2)


@dataclass(frozen=True, eq=False)
class _Basis:
    """What stays the same from one draw or discard to the next: the hand's 财神, shapes
    and melds, and what follows from them."""

    wildcards: Wildcards
    shapes: ShapeRules
    melds: tuple[Meld, ...]
    plays: tuple[Tile | None, ...]
    """What each tile plays as (`Wildcards.plays_as`), by tile."""
    full: int
    """Concealed tiles of a complete hand: 14 less three a meld."""
    seven_pairs: bool
    """Seven pairs may complete it (the rule set allows them, and no meld is laid)."""
    jumble_melds: bool
    """The melds leave an honours jumble possible (the rule set allows one, and every
    meld is of honours)."""

    @classmethod
    def of(cls, wildcards: Wildcards, shapes: ShapeRules, melds: tuple[Meld, ...]
           ) -> _Basis:
        return cls(wildcards, shapes, melds, _PLAYS.get(wildcards, None, lambda: tuple(
            wildcards.plays_as(tile) for tile in Tile)), 14 - 3 * len(melds),
            shapes.seven_pairs and not melds,
            shapes.honours_jumble and all(t.is_honor for m in melds for t in m.tiles))


_PLAYS: IdentityMemo[tuple[Tile | None, ...]] = IdentityMemo("engine.game.held.plays", 64)


class HeldTiles(NamedTuple):
    """A seat's concealed tiles counted on the natural kinds they play as.

    ``split`` is `Wildcards.split` of the hand: the natural counts and the number of
    财神. Its list is shared by every question asked of this seat and never changed.
    ``keys``: each group's `packed` counts, and ``costs`` their `group_cost`;
    ``odd``: the kinds counted an odd number of times (seven pairs); ``suited``: the
    concealed tiles that are no honour (an honours jumble). ``complete``: the tiles
    are a winning shape (`is_winning`); ``completable``: some tile would make them one
    (`is_winning_with` of some tile; False: no discard or robbed kong can be won on).
    Both are worked out as the record is made: a few additions and comparisons, asked
    of every hand (three seats a discard, the drawer's self-draw).

    A named tuple rather than a frozen dataclass: one is made per draw and per
    discard, and it is never compared, stored or pickled (a seat's derived value), so
    the cheapest immutable record serves.
    """

    wildcards: Wildcards
    shapes: ShapeRules
    concealed: tuple[Tile, ...]
    melds: tuple[Meld, ...]
    split: tuple[list[int], int]
    keys: tuple[int, ...]
    costs: Costs
    odd: int
    suited: int
    complete: bool
    completable: bool
    basis: _Basis

    @classmethod
    def of(cls, concealed: tuple[Tile, ...], melds: tuple[Meld, ...], wildcards: Wildcards,
           shapes: ShapeRules) -> HeldTiles:
        counts, jokers = wildcards.split(concealed)
        keys = tuple(packed(counts, group) for group in range(len(_GROUPS)))
        costs = tuple(group_cost(key, _GROUPS[group][2]) for group, key in enumerate(keys))
        return _made(_Basis.of(wildcards, shapes, melds), concealed, counts, jokers, keys,
                     costs, sum(1 for n in counts if n & 1),
                     sum(1 for t in concealed if t < _HONOURS_START))

    def moved(self, tile: Tile, concealed: tuple[Tile, ...], step: int) -> HeldTiles:
        """These tiles with ``step`` (1 or -1) more ``tile`` (``concealed``: the hand
        then): its group's cost alone is looked up again."""
        counts, jokers = self.split
        counts = counts.copy()
        keys, costs, odd, suited, basis = self.keys, self.costs, self.odd, self.suited, \
            self.basis
        face = basis.plays[tile]
        if face is None:
            jokers += step
        else:
            counts[face] += step
            odd += 1 if counts[face] & 1 else -1
            group = _GROUP_OF[face]
            key = keys[group] + (step << _PLACE[face])
            changed_keys, changed_costs = list(keys), list(costs)
            changed_keys[group] = key
            changed_costs[group] = group_cost(key, face >= _HONOURS_START)
            keys, costs = tuple(changed_keys), tuple(changed_costs)
        if tile < _HONOURS_START:
            suited += step
        return _made(basis, concealed, counts, jokers, keys, costs, odd, suited)

    def wins_on(self, tile: Tile) -> bool:
        """`is_winning_with` ``tile``: false at once when the hand is not `completable`,
        else told from the costs with the tile in its group."""
        return self.completable and self._completed_by(tile)

    def _completed_by(self, tile: Tile) -> bool:
        basis = self.basis
        if basis.jumble_melds and not self.suited and tile >= _HONOURS_START:
            return True
        jokers = self.split[1]
        face = basis.plays[tile]
        if face is None:  # one more 财神
            return fewest_jokers(self.costs) <= jokers + 1 or \
                (basis.seven_pairs and self.odd <= jokers + 1)
        group = _GROUP_OF[face]
        costs = _replaced(self.costs, group, group_cost(self.keys[group] + (1 << _PLACE[face]),
                                                        face >= _HONOURS_START))
        odd = self.odd - 1 if self.split[0][face] & 1 else self.odd + 1
        return fewest_jokers(costs) <= jokers or (basis.seven_pairs and odd <= jokers)

    def may_claim(self, tile: Tile, face: Tile | None, chi: bool) -> bool:
        """Whether the hand could claim ``tile``, which plays as ``face`` (None: it is a
        财神, or a robbed kong, which only a win may take): a win on it, or two tiles to
        pong it with, or with ``chi`` two to chi it with (财神 fill any place). False:
        no claim on it is worth enumerating."""
        if face is not None:
            counts, jokers = self.split
            if counts[face] + jokers >= 2:
                return True
            if chi and face < _HONOURS_START and _may_chi(counts, jokers, face):
                return True
        return self.completable and self._completed_by(tile)


def _made(basis: _Basis, concealed: tuple[Tile, ...], counts: list[int], jokers: int,
          keys: tuple[int, ...], costs: Costs, odd: int, suited: int) -> HeldTiles:
    """The `HeldTiles` of these counts, with whether they are (or one tile would make
    them) a winning shape: four melds and a pair, seven pairs or an honours jumble."""
    short = basis.full - len(concealed)  # 0: a complete hand's size, 1: one tile short
    shaped = False
    if short == 0 or short == 1:
        jokers_then = jokers + short  # the missing tile as one more 财神 (`completable`)
        shaped = fewest_jokers(costs) <= jokers_then or \
            (basis.seven_pairs and odd <= jokers_then) or \
            (basis.jumble_melds and not suited)
    return _tuple(HeldTiles, (basis.wildcards, basis.shapes, concealed, basis.melds,
                              (counts, jokers), keys, costs, odd, suited,
                              shaped and short == 0, shaped and short == 1, basis))


def _replaced(values: tuple[V, ...], index: int, value: V) -> tuple[V, ...]:
    changed = list(values)
    changed[index] = value
    return tuple(changed)


_tuple = tuple.__new__  # a named tuple made from its values, past its ``__new__``'s keywords


def neighbours(counts: Sequence[int], face: Tile) -> int:
    """Tiles of a suited ``face``'s suit one or two ranks from it."""
    suit_start = face - face % 9
    return sum(counts[max(suit_start, face - 2):face]) + \
        sum(counts[face + 1:min(suit_start + 9, face + 3)])


def _may_chi(counts: Sequence[int], jokers: int, face: Tile) -> bool:
    """Whether a run of three with the suited ``face`` can be made of the hand's tiles,
    财神 filling the ranks it lacks."""
    rank = face % 9
    # The ranks two below to two above held (a rank outside the suit never is), and
    # the three runs with the face: below it, around it, above it (inside the suit).
    b2 = rank >= 2 and counts[face - 2] > 0
    b1 = rank >= 1 and counts[face - 1] > 0
    a1 = rank <= 7 and counts[face + 1] > 0
    a2 = rank <= 6 and counts[face + 2] > 0
    return (rank >= 2 and 2 - b2 - b1 <= jokers) or \
        (1 <= rank <= 7 and 2 - b1 - a1 <= jokers) or \
        (rank <= 6 and 2 - a1 - a2 <= jokers)
