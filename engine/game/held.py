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
from typing import NamedTuple

from engine.analysis import ShapeRules, Wildcards, is_all_melds, is_complete
from engine.melds import Meld
from engine.memo import IdentityMemo, bounded
from engine.tiles import NUM_KINDS, Tile

_HONOURS_START = Tile.EAST
"""The first kind that is no suit's (the suits' 27 kinds come first)."""
_GROUPS = ((0, 9, False), (9, 18, False), (18, 27, False), (27, 34, True))
"""Each group's kinds (from, to) and whether they are honours (no runs)."""
_GROUP_OF = tuple(kind // 9 if kind < _HONOURS_START else 3 for kind in range(NUM_KINDS))

_PLACE = tuple(3 * (kind - _GROUPS[_GROUP_OF[kind]][0]) for kind in range(NUM_KINDS))
"""Where a kind's count sits in its group's packed key: three bits a kind (a count
never reaches eight)."""
_HONOURS_KEY = 1 << 30
"""Set in the honours group's key (above any count): the key alone then says which kind
of group it is, and `group_cost` is looked up by one int (`functools.lru_cache` keys a
single int argument by itself, where two arguments cost a tuple a call)."""


def packed(counts: Sequence[int], group: int) -> int:
    """A group's counts as one int (`_PLACE`, with `_HONOURS_KEY` for the honours): a
    draw or a discard adds to it or takes from it, and it is a cheap key to look the
    group's cost up by."""
    lo, hi, honours = _GROUPS[group]
    return sum(n << _PLACE[kind] for kind, n in enumerate(counts[lo:hi], lo)) | \
        (_HONOURS_KEY if honours else 0)


def _keys(counts: Sequence[int]) -> list[int]:
    """`packed` of each of the four groups, in one pass over the held kinds."""
    keys = [0, 0, 0, _HONOURS_KEY]
    for kind, n in enumerate(counts):
        if n:
            keys[_GROUP_OF[kind]] += n << _PLACE[kind]
    return keys


@bounded(maxsize=1 << 13)
def group_cost(key: int) -> tuple[int, int]:
    """The fewest 财神 that turn one group's tiles into melds, and how many more (or
    fewer) it takes with the pair as well. ``key``: the group's `packed` counts (a
    suit's nine kinds, or the seven honours, marked by `_HONOURS_KEY`).

    Asked of `is_all_melds` / `is_complete` with the group alone in the hand: a cost
    is always the tiles' count short of a whole number of melds (and pair), so the
    fewest 财神 they accept is the cost itself."""
    honours = bool(key & _HONOURS_KEY)
    counts = [0] * NUM_KINDS
    start = _HONOURS_START if honours else 0
    for place in range(NUM_KINDS - _HONOURS_START if honours else 9):
        counts[start + place] = key >> 3 * place & 7
    tiles = sum(counts)
    # Each tile alone takes at most two 财神 to a pong, the pair at most two more.
    melds = next(j for j in range(-tiles % 3, 2 * tiles + 1, 3) if is_all_melds(counts, j))
    pair = next(j for j in range((2 - tiles) % 3, 2 * tiles + 3, 3) if is_complete(counts, j))
    return melds, pair - melds


def fewest_jokers(melds: int, pairs: Sequence[int]) -> int:
    """Fewest 财神 that make the whole hand melds and one pair: ``melds``, the groups'
    costs as melds alone, added up, and the pair in one of the groups (its ``pairs``
    extra) or (two 财神) on its own."""
    return melds + min(min(pairs), 2)


class _Basis(NamedTuple):
    """What stays the same from one draw or discard to the next: the hand's 财神, shapes
    and melds, and what follows from them. (A named tuple: a restored seat makes one
    when its tiles are first counted, and a frozen dataclass's ``__init__`` costs
    several times as much.)"""

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

_SHAPE = ("keys", "melds_cost", "pairs", "odd", "suited", "complete", "completable")
"""`HeldTiles`' values worked out from the counts (`HeldTiles.worked_out`)."""


class HeldTiles:
    """A seat's concealed tiles counted on the natural kinds they play as.

    ``split`` is `Wildcards.split` of the hand: the natural counts and the number of
    财神. Its list is shared by every question asked of this seat and never changed.

    The shape (`_SHAPE`): ``keys``, each group's `packed` counts; ``melds_cost``, their
    `group_cost`s as melds alone added up, and ``pairs`` each group's extra for the
    pair; ``odd``: the kinds counted an odd number of times (seven pairs); ``suited``:
    the concealed tiles that are no honour (an honours jumble). ``complete``: the tiles
    are a winning shape (`is_winning`); ``completable``: some tile would make them one
    (`is_winning_with` of some tile; False: no discard or robbed kong can be won on).
    Tiles moved by a draw or a discard (`moved`) from tiles whose shape is known get
    theirs at once, from their one changed group (a few additions, asked of three seats
    a discard and of the drawer); tiles counted afresh (`of`: a restored seat, a
    claim) leave them unset until `worked_out` (which `may_claim` and `wins_on` ask
    when they need them), so a seat restored from a snapshot and never asked costs
    only its count. Read ``complete`` / ``completable`` of tiles from `worked_out`:
    an unset value raises AttributeError rather than answer wrongly.

    A class with slots: one is made per draw and per discard, and it is never compared,
    stored or pickled (a seat's derived value). No ``__getattr__``: with one, every
    attribute read of the class takes Python 3.11's slow path.
    """

    __slots__ = ("wildcards", "shapes", "concealed", "melds", "split", "basis", "shaped",
                 *_SHAPE)
    wildcards: Wildcards
    shapes: ShapeRules
    concealed: tuple[Tile, ...]
    melds: tuple[Meld, ...]
    split: tuple[list[int], int]
    basis: _Basis
    shaped: bool
    """Whether the shape's values are set (else the first read works them out)."""
    keys: list[int]
    melds_cost: int
    pairs: list[int]
    odd: int
    suited: int
    complete: bool
    completable: bool

    @classmethod
    def of(cls, concealed: tuple[Tile, ...], melds: tuple[Meld, ...], wildcards: Wildcards,
           shapes: ShapeRules) -> HeldTiles:
        """The tiles counted afresh; their shape is left to `worked_out`."""
        held = _new(cls)
        held.wildcards, held.shapes, held.concealed, held.melds = \
            wildcards, shapes, concealed, melds
        held.split = wildcards.split(concealed)
        held.basis = _Basis.of(wildcards, shapes, melds)
        held.shaped = False
        return held

    def worked_out(self) -> HeldTiles:
        """These tiles with their shape's values set (`_SHAPE`): worked out from the
        counts now if they were counted afresh and nothing asked them yet."""
        if not self.shaped:
            counts, jokers = self.split
            keys = _keys(counts)
            costs = [group_cost(key) for key in keys]
            _shaped(self, keys, sum(m for m, _ in costs), [p for _, p in costs],
                    sum(n & 1 for n in counts),
                    sum(1 for t in self.concealed if t < _HONOURS_START), jokers)
        return self

    def moved(self, tile: Tile, concealed: tuple[Tile, ...], step: int) -> HeldTiles:
        """These tiles with ``step`` (1 or -1) more ``tile`` (``concealed``: the hand
        then): when their shape is known, its group's cost alone is looked up again."""
        counts, jokers = self.split
        basis = self.basis
        new = _new(HeldTiles)
        new.wildcards, new.shapes, new.concealed, new.melds, new.basis = \
            basis.wildcards, basis.shapes, concealed, basis.melds, basis
        face = basis.plays[tile]
        if face is None:
            jokers += step
        else:
            counts = counts.copy()
            counts[face] += step
        new.split = (counts, jokers)
        if not self.shaped:
            new.shaped = False  # worked out when first read, from the counts
            return new
        keys, melds_cost, pairs, odd = self.keys, self.melds_cost, self.pairs, self.odd
        if face is not None:
            odd += 1 if counts[face] & 1 else -1
            group = _GROUP_OF[face]
            keys = keys.copy()
            key = keys[group] = keys[group] + (step << _PLACE[face])
            before = group_cost(self.keys[group])
            after = group_cost(key)
            melds_cost += after[0] - before[0]
            if after[1] != before[1]:
                pairs = pairs.copy()
                pairs[group] = after[1]
        suited = self.suited + step if tile < _HONOURS_START else self.suited
        # `_shaped`, written out: two records a move are made here.
        new.keys, new.melds_cost, new.pairs, new.odd, new.suited = \
            keys, melds_cost, pairs, odd, suited
        short = basis.full - len(concealed)
        shaped = False
        if short == 0 or short == 1:
            jokers += short
            shaped = melds_cost + min(min(pairs), 2) <= jokers or \
                (basis.seven_pairs and odd <= jokers) or (basis.jumble_melds and not suited)
        new.complete = shaped and short == 0
        new.completable = shaped and short == 1
        new.shaped = True
        return new

    def wins_on(self, tile: Tile) -> bool:
        """`is_winning_with` ``tile``: false at once when the hand is not `completable`,
        else told from the costs with the tile in its group."""
        return self.worked_out().completable and self._completed_by(tile)

    def _completed_by(self, tile: Tile) -> bool:
        basis = self.basis
        if basis.jumble_melds and not self.suited and tile >= _HONOURS_START:
            return True
        jokers = self.split[1]
        face = basis.plays[tile]
        if face is None:  # one more 财神
            return fewest_jokers(self.melds_cost, self.pairs) <= jokers + 1 or \
                (basis.seven_pairs and self.odd <= jokers + 1)
        group = _GROUP_OF[face]
        key = self.keys[group]
        before, after = group_cost(key), group_cost(key + (1 << _PLACE[face]))
        pairs = self.pairs.copy()
        pairs[group] = after[1]
        odd = self.odd - 1 if self.split[0][face] & 1 else self.odd + 1
        return fewest_jokers(self.melds_cost - before[0] + after[0], pairs) <= jokers or \
            (basis.seven_pairs and odd <= jokers)

    def may_claim(self, tile: Tile, face: Tile | None, chi: bool) -> bool:
        """Whether the hand could claim ``tile``, which plays as ``face`` (None: it is a
        财神, or a robbed kong, which only a win may take): a win on it, or two tiles to
        pong it with, or with ``chi`` two to chi it with (财神 fill any place). False:
        no claim on it is worth enumerating."""
        if face is not None:
            counts, jokers = self.split
            if counts[face] + jokers >= 2:
                return True
            suited = face < _HONOURS_START
            if chi and suited and _may_chi(counts, jokers, face):
                return True
            # Tiles whose shape is not known yet (a seat restored from a snapshot): with
            # no 财神, a tile that makes no pair and no run with a tile held joins no
            # group of a complete hand (only the honours jumble takes any honour), so
            # there is no win on it, and no need to work the shape out to say so.
            if not self.shaped and not jokers and not counts[face] and \
                    not (suited and neighbours(counts, face)) and \
                    not (not suited and self.shapes.honours_jumble):
                return False
        if not self.shaped:
            self.worked_out()
        return self.completable and self._completed_by(tile)


def _shaped(held: HeldTiles, keys: list[int], melds_cost: int, pairs: list[int], odd: int,
            suited: int, jokers: int) -> None:
    """Set ``held``'s shape values, with whether its tiles are (or one tile would make
    them) a winning shape: four melds and a pair, seven pairs or an honours jumble."""
    basis = held.basis
    held.keys, held.melds_cost, held.pairs, held.odd, held.suited = \
        keys, melds_cost, pairs, odd, suited
    short = basis.full - len(held.concealed)  # 0: a complete hand's size, 1: one short
    shaped = False
    if short == 0 or short == 1:
        jokers_then = jokers + short  # the missing tile as one more 财神 (`completable`)
        shaped = melds_cost + min(min(pairs), 2) <= jokers_then or \
            (basis.seven_pairs and odd <= jokers_then) or \
            (basis.jumble_melds and not suited)
    held.complete = shaped and short == 0
    held.completable = shaped and short == 1
    held.shaped = True


_new = object.__new__


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
