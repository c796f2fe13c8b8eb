"""Hand analysis: complete or not, every reading, waits, 暴头, shanten — with wildcards.

Everything here works on a *natural* count array (34 kinds) plus a number of
jokers (Hangzhou 财神). `Wildcards` turns physical tiles into that form for a rule
set and mode; the rest never needs to know which tile is wild.

Speed comes from splitting the hand into its four groups (three suits, honours):
a group's cost — the fewest jokers that turn all its tiles into melds, with or
without the pair — depends on that group alone, so it is computed once per distinct
group and memoised. A win check is then four dictionary look-ups and a sum, whatever
the number of jokers; no substitution search ever happens.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import cached_property

from engine.melds import Meld
from engine.memo import bounded
from engine.tiles import NUM_KINDS, PLAYING_TILES, Tile

_INF = 99
_GROUP_SLICES = ((0, 9, False), (9, 18, False), (18, 27, False), (27, 34, True))


# ---------------------------------------------------------------------------
# Wildcards


@dataclass(frozen=True)
class Wildcards:
    """Which physical tile is wild (财神) and which tile plays as another.

    ``joker`` is the wild kind (None: no wildcards). ``stand_in`` maps a physical
    kind to the kind it plays as: in Hangzhou ``flip`` mode the White Dragon plays as
    the turned tile (白板代财神).
    """

    joker: Tile | None = None
    stand_in: tuple[tuple[Tile, Tile], ...] = ()
    jokers_in_set: int = 0

    @classmethod
    def none(cls) -> Wildcards:
        return cls()

    @classmethod
    def fixed(cls) -> Wildcards:
        """Hangzhou ``fixed``: the four White Dragons are 财神."""
        return cls(joker=Tile.WHITE, jokers_in_set=4)

    @classmethod
    def flip(cls, turned: Tile) -> Wildcards:
        """Hangzhou ``flip``: the three other copies of the turned tile are 财神."""
        if turned.is_flower:
            raise ValueError("a flower cannot be the turned 财神 tile")
        if turned is Tile.WHITE:
            return cls(joker=Tile.WHITE, jokers_in_set=3)
        return cls(joker=turned, stand_in=((Tile.WHITE, turned),), jokers_in_set=3)

    def is_joker(self, tile: Tile) -> bool:
        return self.joker is not None and tile == self.joker

    def plays_as(self, tile: Tile) -> Tile | None:
        """The natural kind a physical tile plays as; None for a joker."""
        if self.joker is not None and tile == self.joker:
            return None
        for physical, natural in self.stand_in:
            if tile == physical:
                return natural
        return tile

    def split(self, tiles: Iterable[Tile]) -> tuple[list[int], int]:
        """Natural counts (34) and the number of jokers among ``tiles``."""
        counts = [0] * NUM_KINDS
        jokers = 0
        joker = self.joker
        if not self.stand_in:  # the common case: count every tile, then take the jokers out
            for tile in tiles:
                counts[tile] += 1
            if joker is not None:
                jokers, counts[joker] = counts[joker], 0
            return counts, jokers
        stand = dict(self.stand_in)
        for tile in tiles:
            if tile == joker:
                jokers += 1
            else:
                counts[stand.get(tile, tile)] += 1
        return counts, jokers


NO_WILDCARDS = Wildcards.none()


# ---------------------------------------------------------------------------
# Group costs (the memoised core)


def _first(key: tuple[int, ...]) -> int:
    for i, n in enumerate(key):
        if n:
            return i
    return -1


@bounded(maxsize=1 << 14)
def _solve(key: tuple[int, ...], need_pair: bool, honors: bool) -> int:
    """Fewest jokers that turn all of ``key`` into melds (and one pair if asked)."""
    i = _first(key)
    if i < 0:
        return 2 if need_pair else 0
    best = _INF
    for rest, jokers, kind, _face in _described_moves(key, i, need_pair, honors):
        if jokers >= best:
            continue  # the rest costs nothing at best: no better than found already
        cost = jokers + _solve(rest, need_pair and kind is not GroupKind.PAIR, honors)
        if cost < best:
            best = cost
    return best


def _described_moves(key: tuple[int, ...], i: int, need_pair: bool, honors: bool
                     ) -> Iterator[tuple[tuple[int, ...], int, GroupKind, int]]:
    c = key[i]
    lst = list(key)
    for real in range(1, min(c, 3) + 1):
        lst[i] -= real
        yield tuple(lst), 3 - real, GroupKind.PUNG, i
        lst[i] += real
    if need_pair:
        for real in range(1, min(c, 2) + 1):
            lst[i] -= real
            yield tuple(lst), 2 - real, GroupKind.PAIR, i
            lst[i] += real
    if honors:
        return
    top = len(key) - 1
    for start in (i - 2, i - 1, i):
        if start < 0 or start + 2 > top:
            continue
        above = [p for p in (start, start + 1, start + 2) if p > i]
        for mask in range(1 << len(above)):
            used = [p for bit, p in enumerate(above) if mask >> bit & 1]
            if any(lst[p] == 0 for p in used):
                continue
            lst[i] -= 1
            for p in used:
                lst[p] -= 1
            yield tuple(lst), (i - start) + len(above) - len(used), GroupKind.CHOW, start
            lst[i] += 1
            for p in used:
                lst[p] += 1


@bounded(maxsize=1 << 14)
def _group_cost(key: tuple[int, ...], honors: bool) -> tuple[int, int]:
    """A group's cost without and with the pair."""
    return (_solve(key, False, honors), _solve(key, True, honors))


@bounded(maxsize=1 << 13)
def _costs_plus_one(key: tuple[int, ...], honors: bool) -> tuple[tuple[int, int], ...]:
    """The group's cost with one more tile of each of its kinds (for the waits)."""
    out = []
    lst = list(key)
    for k in range(len(key)):
        lst[k] += 1
        out.append(_group_cost(tuple(lst), honors))
        lst[k] -= 1
    return tuple(out)


def _group_costs(counts: Sequence[int]) -> tuple[tuple[int, int], ...]:
    return (
        _group_cost(tuple(counts[0:9]), False),
        _group_cost(tuple(counts[9:18]), False),
        _group_cost(tuple(counts[18:27]), False),
        _group_cost(tuple(counts[27:34]), True),
    )


def _min_jokers(costs: Sequence[tuple[int, int]]) -> int:
    """Fewest jokers for melds + one pair, the pair in any group or of jokers alone."""
    base = costs[0][0] + costs[1][0] + costs[2][0] + costs[3][0]
    best = base + 2
    for no_pair, with_pair in costs:
        cand = base - no_pair + with_pair
        if cand < best:
            best = cand
    return best


# ---------------------------------------------------------------------------
# Complete hands on counts


def is_complete(counts: Sequence[int], jokers: int = 0) -> bool:
    """Standard shape: all tiles (natural counts + jokers) form melds and one pair.

    The number of melds is implied by the tile count (14, 11, 8, 5 or 2 tiles).
    """
    if (sum(counts) + jokers) % 3 != 2:
        return False
    return _min_jokers(_group_costs(counts)) <= jokers


def is_all_melds(counts: Sequence[int], jokers: int = 0) -> bool:
    """All tiles form melds with no pair (used for 暴头)."""
    if (sum(counts) + jokers) % 3:
        return False
    costs = _group_costs(counts)
    return costs[0][0] + costs[1][0] + costs[2][0] + costs[3][0] <= jokers


def seven_pairs_luxury(counts: Sequence[int], jokers: int = 0) -> int | None:
    """Seven pairs (four alike = two pairs): the most 豪华 (fours) any reading has.

    None when the 14 tiles are not seven pairs. Jokers first mend odd counts, then
    pair up to turn pairs into fours, then into fours of their own.
    """
    if sum(counts) + jokers != 14:
        return None
    odd = sum(1 for n in counts if n & 1)
    if odd > jokers:
        return None
    fours = sum(1 for n in counts if n >= 3)
    pairs_to_upgrade = sum(1 for n in counts if n in (1, 2))
    spare_pairs = (jokers - odd) // 2
    upgrades = min(spare_pairs, pairs_to_upgrade)
    return fours + upgrades + (spare_pairs - upgrades) // 2


def is_six_pairs(counts: Sequence[int], jokers: int = 0) -> bool:
    """Twelve tiles as six pairs (the seven-pairs 暴头 test)."""
    if sum(counts) + jokers != 12:
        return False
    return sum(1 for n in counts if n & 1) <= jokers


# ---------------------------------------------------------------------------
# Readings


class GroupKind(Enum):
    CHOW = "chow"
    PUNG = "pung"
    PAIR = "pair"


class Shape(Enum):
    STANDARD = "standard"
    SEVEN_PAIRS = "seven_pairs"
    HONOURS_JUMBLE = "honours_jumble"


@dataclass(frozen=True)
class Group:
    """A concealed group in a reading. ``face`` is the tile it is made of (lowest of a
    chow); None when made of jokers alone, which may stand for anything. ``wild`` is
    how many of its tiles are jokers."""

    kind: GroupKind
    face: Tile | None
    wild: int = 0

    @property
    def size(self) -> int:
        return 2 if self.kind is GroupKind.PAIR else 3

    @property
    def tiles(self) -> tuple[Tile, ...] | None:
        if self.face is None:
            return None
        if self.kind is GroupKind.CHOW:
            return (self.face, Tile(self.face + 1), Tile(self.face + 2))
        return (self.face,) * self.size

    def sort_key(self) -> tuple[int, int, int]:
        return (list(GroupKind).index(self.kind), -1 if self.face is None else self.face,
                self.wild)


@dataclass(frozen=True)
class Reading:
    """One way a hand completes. ``groups`` are the concealed groups (standard: melds
    then the pair; seven pairs: the pairs); ``luxury`` counts fours in seven pairs."""

    shape: Shape
    groups: tuple[Group, ...] = ()
    luxury: int = 0

    @property
    def pair(self) -> Group | None:
        for g in self.groups:
            if g.kind is GroupKind.PAIR and self.shape is Shape.STANDARD:
                return g
        return None

    @property
    def melds(self) -> tuple[Group, ...]:
        return tuple(g for g in self.groups if g.kind is not GroupKind.PAIR)

    @property
    def wild(self) -> int:
        return sum(g.wild for g in self.groups)


def standard_readings(counts: Sequence[int], jokers: int = 0) -> list[Reading]:
    """Every distinct way natural counts + jokers split into melds and one pair."""
    if (sum(counts) + jokers) % 3 != 2 or not is_complete(counts, jokers):
        return []
    found: set[tuple[Group, ...]] = set()
    _enumerate(list(counts), jokers, [], False, found)
    return [Reading(Shape.STANDARD, groups) for groups in sorted(
        found, key=lambda gs: [g.sort_key() for g in gs])]


def _enumerate(counts: list[int], jokers: int, groups: list[Group], have_pair: bool,
               found: set[tuple[Group, ...]]) -> None:
    i = next((k for k in range(NUM_KINDS) if counts[k]), -1)
    if i < 0:
        _finish_with_jokers(jokers, groups, have_pair, found)
        return
    base, end, honors = next(s for s in _GROUP_SLICES if s[0] <= i < s[1])
    key = tuple(counts[base:end])
    for rest, wild, kind, face in _described_moves(key, i - base, not have_pair, honors):
        if wild > jokers:
            continue
        new_counts = counts[:base] + list(rest) + counts[end:]
        if not _still_possible(new_counts, jokers - wild, have_pair or kind is GroupKind.PAIR):
            continue
        group = Group(kind, Tile(base + face), wild)
        _enumerate(new_counts, jokers - wild, [*groups, group],
                   have_pair or kind is GroupKind.PAIR, found)


def _still_possible(counts: Sequence[int], jokers: int, have_pair: bool) -> bool:
    costs = _group_costs(counts)
    if have_pair:
        return costs[0][0] + costs[1][0] + costs[2][0] + costs[3][0] <= jokers
    return _min_jokers(costs) <= jokers


def _finish_with_jokers(jokers: int, groups: list[Group], have_pair: bool,
                        found: set[tuple[Group, ...]]) -> None:
    extra: list[Group] = []
    if not have_pair:
        if jokers < 2:
            return
        extra.append(Group(GroupKind.PAIR, None, 2))
        jokers -= 2
    if jokers % 3:
        return
    extra.extend(Group(GroupKind.PUNG, None, 3) for _ in range(jokers // 3))
    found.add(tuple(sorted([*groups, *extra], key=Group.sort_key)))


def seven_pairs_reading(counts: Sequence[int], jokers: int = 0) -> Reading | None:
    """The seven-pairs reading with the most fours (jokers placed to make them)."""
    luxury = seven_pairs_luxury(counts, jokers)
    if luxury is None:
        return None
    groups: list[Group] = []
    spare = jokers
    for i, n in enumerate(counts):
        if n & 1:
            spare -= 1
        for _ in range((n + 1) // 2):
            groups.append(Group(GroupKind.PAIR, Tile(i), 1 if n & 1 and _ == 0 else 0))
    groups.extend(Group(GroupKind.PAIR, None, 2) for _ in range(spare // 2))
    return Reading(Shape.SEVEN_PAIRS, tuple(groups), luxury)


# ---------------------------------------------------------------------------
# The public analysis of a hand of physical tiles


@dataclass(frozen=True)
class ShapeRules:
    """Which special shapes a rule set allows besides four melds and a pair."""

    seven_pairs: bool = False
    honours_jumble: bool = False


STANDARD_ONLY = ShapeRules()


@dataclass(frozen=True)
class HandAnalysis:
    """The concealed tiles of a hand (13 or 14 minus three per meld) and its melds."""

    concealed: tuple[Tile, ...]
    melds: tuple[Meld, ...] = ()
    wildcards: Wildcards = NO_WILDCARDS
    shapes: ShapeRules = STANDARD_ONLY

    @cached_property
    def _split(self) -> tuple[list[int], int]:
        return self.wildcards.split(self.concealed)

    @property
    def counts(self) -> list[int]:
        return list(self._split[0])

    @property
    def jokers(self) -> int:
        return self._split[1]

    @property
    def target(self) -> int:
        """Concealed tiles of a complete hand: 14 minus 3 per meld (kongs too)."""
        return 14 - 3 * len(self.melds)

    def _jumble_possible(self) -> bool:
        return self.shapes.honours_jumble and all(
            all(t.is_honor for t in m.tiles) for m in self.melds)

    def is_winning(self) -> bool:
        """Whether these concealed tiles (the winning tile included) complete."""
        return is_winning(self.concealed, self.melds, self.wildcards, self.shapes)

    def readings(self) -> list[Reading]:
        """Every way the hand completes; empty when it does not."""
        counts, jokers = self._split
        if len(self.concealed) != self.target:
            return []
        found = standard_readings(counts, jokers)
        if self.shapes.seven_pairs and not self.melds:
            pairs = seven_pairs_reading(counts, jokers)
            if pairs is not None:
                found.append(pairs)
        if self._jumble_possible() and all(t.is_honor for t in self.concealed):
            found.append(Reading(Shape.HONOURS_JUMBLE))
        return found

    def with_tile(self, tile: Tile) -> HandAnalysis:
        return HandAnalysis((*self.concealed, tile), self.melds, self.wildcards, self.shapes)

    def waits(self) -> frozenset[Tile]:
        """Physical tiles that would complete this hand (one short of complete).

        A tile of which the player already holds every copy (in hand or melds) cannot
        arrive, so it is no wait even when it would complete the hand.
        """
        if len(self.concealed) != self.target - 1:
            return frozenset()
        return _waits(tuple(sorted(self.concealed)), self.melds, self.wildcards, self.shapes)

    def is_bao_tou(self) -> bool:
        """暴头: one short of complete, and complete already with one 财神 taken out
        (four melds, or six pairs), so any tile completes by pairing with it."""
        if len(self.concealed) != self.target - 1:
            return False
        counts, jokers = self._split
        if jokers == 0:
            return False
        if is_all_melds(counts, jokers - 1):
            return True
        return self.shapes.seven_pairs and not self.melds and is_six_pairs(counts, jokers - 1)

    def shanten(self) -> int:
        """Tiles to change before the hand is one short of complete (−1: complete,
        0: ready/听牌)."""
        counts, jokers = self._split
        blocks = 4 - len(self.melds)
        best = standard_shanten(counts, jokers, blocks)
        if self.shapes.seven_pairs and not self.melds:
            best = min(best, seven_pairs_shanten(counts, jokers))
        if self._jumble_possible():
            honors = sum(1 for t in self.concealed if t.is_honor)
            best = min(best, max(-1, self.target - honors - 1))
        if best == 0 and not self._live_ready():
            best = 1  # ready in shape, but only on tiles of which every copy is held
        return best

    def _live_ready(self) -> bool:
        """Ready on a tile that can still arrive (13 tiles), or one discard from it (14)."""
        if len(self.concealed) == self.target - 1:
            return bool(self.waits())
        if len(self.concealed) != self.target:
            return True
        tried: set[Tile] = set()
        for i, tile in enumerate(self.concealed):
            if tile not in tried:
                tried.add(tile)
                rest = self.concealed[:i] + self.concealed[i + 1:]
                if HandAnalysis(rest, self.melds, self.wildcards, self.shapes).waits():
                    return True
        return False


def is_winning(concealed: Sequence[Tile], melds: Sequence[Meld], wildcards: Wildcards,
               shapes: ShapeRules) -> bool:
    """`HandAnalysis.is_winning` without building the analysis (every claim window asks
    it of every seat)."""
    if len(concealed) != 14 - 3 * len(melds):
        return False
    counts, jokers = wildcards.split(concealed)
    return _winning_split(counts, jokers, concealed, melds, shapes)


def is_winning_with(concealed: Sequence[Tile], extra: Tile, split: tuple[list[int], int],
                    melds: Sequence[Meld], wildcards: Wildcards, shapes: ShapeRules) -> bool:
    """`is_winning` of ``concealed`` and ``extra``, given ``concealed``'s split (which is
    left as it was): a claim window asks it of each seat that also counts its tiles."""
    if len(concealed) + 1 != 14 - 3 * len(melds):
        return False
    counts, jokers = split
    plays = wildcards.plays_as(extra)
    if plays is None:
        return _winning_split(counts, jokers + 1, (*concealed, extra), melds, shapes)
    counts[plays] += 1
    try:
        return _winning_split(counts, jokers, (*concealed, extra), melds, shapes)
    finally:
        counts[plays] -= 1


def _winning_split(counts: list[int], jokers: int, concealed: Sequence[Tile],
                   melds: Sequence[Meld], shapes: ShapeRules) -> bool:
    if is_complete(counts, jokers):
        return True
    if shapes.seven_pairs and not melds and seven_pairs_luxury(counts, jokers) is not None:
        return True
    return shapes.honours_jumble and all(all(t.is_honor for t in m.tiles) for m in melds) \
        and all(t.is_honor for t in concealed)


@bounded(maxsize=1 << 12)
def _waits(concealed: tuple[Tile, ...], melds: tuple[Meld, ...], wildcards: Wildcards,
           shapes: ShapeRules) -> frozenset[Tile]:
    """`HandAnalysis.waits` of a hand one short of complete (memoised: the views ask it
    of every seat after every move, and three seats of four have not moved)."""
    counts, jokers = wildcards.split(concealed)
    jumble = _jumble_melds(melds, shapes) and all(t.is_honor for t in concealed)
    costs = _group_costs(counts)
    seven = shapes.seven_pairs and not melds
    if not (jumble or _may_wait(costs, jokers, seven, _odd_kinds(counts) if seven else 0)):
        return _NO_WAITS
    return _waits_of(counts, jokers, _held(concealed, melds), costs, _arrivals(wildcards),
                     seven, jumble)


def _odd_kinds(counts: Sequence[int]) -> int:
    return sum(1 for n in counts if n & 1)


def discard_waits(concealed: Sequence[Tile], melds: Sequence[Meld], wildcards: Wildcards,
                  shapes: ShapeRules) -> dict[Tile, frozenset[Tile]]:
    """The waits (`HandAnalysis.waits`) of the hand each distinct discard leaves, for a
    hand of complete size (14 concealed tiles less 3 a meld; else every discard's
    waits are empty, as `HandAnalysis.waits` says of a wrongly sized hand).

    One pass: the hand is split, its held copies and its groups' costs counted once,
    and a discard changes only the group of its own kind (the view offers about
    fourteen discards after every draw, each with its waits). Most discards leave a
    hand too far from complete to wait on anything: that is told from the group costs
    and the count of odd kinds alone (`_may_wait`), without looking for waits."""
    out: dict[Tile, frozenset[Tile]] = {}
    if len(concealed) != 14 - 3 * len(melds):
        return dict.fromkeys(concealed, frozenset())
    counts, jokers = wildcards.split(concealed)
    held = _held(concealed, melds)
    costs = _group_costs(counts)
    seven = shapes.seven_pairs and not melds
    odd = _odd_kinds(counts) if seven else 0
    jumble_melds = _jumble_melds(melds, shapes)
    suited = sum(1 for t in concealed if not t.is_honor)
    arrivals = _arrivals(wildcards)
    minus: list[tuple[tuple[int, int] | None, ...] | None] = [None] * len(_GROUP_SLICES)
    for tile in sorted(set(concealed)):
        plays = wildcards.plays_as(tile)
        jumble = jumble_melds and suited - (0 if tile.is_honor else 1) == 0
        if plays is None:
            left, spare, odd_left = costs, jokers - 1, odd
        else:
            g = _GROUP_OF[plays]
            start, end, honors = _GROUP_SLICES[g]
            fewer = minus[g]
            if fewer is None:
                fewer = minus[g] = _costs_minus_one(tuple(counts[start:end]), honors)
            cost = fewer[plays - start]
            assert cost is not None  # the discard is held
            left = (*costs[:g], cost, *costs[g + 1:])
            spare = jokers
            odd_left = odd - 1 if counts[plays] & 1 else odd + 1
        if not (jumble or _may_wait(left, spare, seven, odd_left)):
            out[tile] = _NO_WAITS
            continue
        held[tile] -= 1
        if plays is not None:
            counts[plays] -= 1
        out[tile] = _waits_of(counts, spare, held, left, arrivals, seven, jumble)
        if plays is not None:
            counts[plays] += 1
        held[tile] += 1
    return out


_NO_WAITS: frozenset[Tile] = frozenset()


def _may_wait(costs: Sequence[tuple[int, int]], jokers: int, seven_pairs: bool, odd: int
              ) -> bool:
    """Whether a hand one short of complete (by its group ``costs``, ``jokers`` and, with
    ``seven_pairs``, its number of ``odd`` kinds) can wait on anything but as an honours
    jumble: four melds and a pair at most one joker away, or seven pairs with at most
    one odd kind more than jokers. `_waits_of` finds no wait otherwise (its natural
    waits, and its 财神 arrival, ask exactly these)."""
    return _min_jokers(costs) <= jokers + 1 or (seven_pairs and odd - 1 <= jokers)


@bounded(maxsize=1 << 13)
def _costs_minus_one(key: tuple[int, ...], honors: bool
                     ) -> tuple[tuple[int, int] | None, ...]:
    """The group's costs (`_group_cost`) with one tile fewer of each of its kinds (None
    for a kind it does not hold): a discard's group in `discard_waits`."""
    out: list[tuple[int, int] | None] = []
    lst = list(key)
    for k, n in enumerate(key):
        if not n:
            out.append(None)
            continue
        lst[k] -= 1
        out.append(_group_cost(tuple(lst), honors))
        lst[k] += 1
    return tuple(out)


def _held(concealed: Iterable[Tile], melds: Iterable[Meld]) -> list[int]:
    """Physical copies of each tile the player holds, in hand and in melds."""
    held = [0] * NUM_KINDS
    for tile in concealed:
        held[tile] += 1
    for meld in melds:
        for tile in meld.tiles:
            held[tile] += 1
    return held


def _jumble_melds(melds: Iterable[Meld], shapes: ShapeRules) -> bool:
    """An honours jumble is still possible with these melds (`_jumble_possible`)."""
    return shapes.honours_jumble and all(all(t.is_honor for t in m.tiles) for m in melds)


def _waits_of(counts: list[int], jokers: int, held: Sequence[int],
              costs: Sequence[tuple[int, int]], arrivals: _Arrivals, seven_pairs: bool,
              jumble: bool) -> frozenset[Tile]:
    """The waits of a hand one short of complete, from its natural counts, jokers,
    held copies and group costs (``jumble``: an honours jumble is possible;
    ``arrivals``: the hand's `_arrivals`)."""
    natural = _natural_waits(counts, jokers, seven_pairs, costs)
    # A tile waits when it can still arrive (the player holds fewer than all its
    # copies) and completes: as the natural kind it plays as, as a joker, or as an
    # honour in an honours jumble.
    candidates = [arrival for kind in natural for arrival in arrivals.playing_as[kind]]
    if jumble:
        candidates.extend(arrivals.honours)
    if arrivals.jokers and _completes_with_joker(counts, jokers, seven_pairs, costs):
        candidates.extend(arrivals.jokers)
    return frozenset(tile for tile, copies in candidates if held[tile] < copies)


@dataclass(frozen=True)
class _Arrivals:
    """The physical tiles (with their copies in the set) by what they play as."""

    playing_as: tuple[tuple[tuple[Tile, int], ...], ...]
    """For each natural kind, the physical tiles that play as it."""
    honours: tuple[tuple[Tile, int], ...]
    """The honour tiles that are not jokers."""
    jokers: tuple[tuple[Tile, int], ...]


@bounded(maxsize=64)
def _arrivals(wildcards: Wildcards) -> _Arrivals:
    playing_as: list[list[tuple[Tile, int]]] = [[] for _ in range(NUM_KINDS)]
    honours, jokers = [], []
    for tile in PLAYING_TILES:
        plays = wildcards.plays_as(tile)
        if plays is None:
            jokers.append((tile, wildcards.jokers_in_set))
            continue
        playing_as[plays].append((tile, 4))
        if tile.is_honor:
            honours.append((tile, 4))
    return _Arrivals(tuple(tuple(p) for p in playing_as), tuple(honours), tuple(jokers))


def _natural_waits(counts: list[int], jokers: int, seven_pairs: bool,
                   costs: Sequence[tuple[int, int]]) -> set[int]:
    """Natural kinds whose addition completes the hand, touching one group per kind
    (``costs``: the hand's `_group_costs`)."""
    out: set[int] = set()
    if _min_jokers(costs) <= jokers + 1:
        _standard_waits(counts, jokers, costs, out)
    if seven_pairs and sum(counts) + 1 + jokers == 14:
        # Seven pairs: jokers mend the odd counts (`seven_pairs_luxury`).
        odd = sum(1 for n in counts if n & 1)
        out.update(k for k in range(NUM_KINDS)
                   if (odd - 1 if counts[k] & 1 else odd + 1) <= jokers)
    return out


def _standard_waits(counts: list[int], jokers: int, costs: Sequence[tuple[int, int]],
                    out: set[int]) -> None:
    """`_natural_waits`' four melds and a pair, added to ``out``. Asked only when the
    hand is at most one joker short: a tile that completes it would complete it as one
    more joker too, so a hand further away has no such wait (most hands, most turns)."""
    base = costs[0][0] + costs[1][0] + costs[2][0] + costs[3][0]
    pair_extra = [with_pair - no_pair for no_pair, with_pair in costs]
    for g, (start, end, honors) in enumerate(_GROUP_SLICES):
        # The pair of jokers (2), or in another group, or in this one.
        others_pair = 2
        for h in range(4):
            if h != g and pair_extra[h] < others_pair:
                others_pair = pair_extra[h]
        budget = jokers - (base - costs[g][0])
        waits = _group_waits(tuple(counts[start:end]), honors, others_pair, budget)
        if waits:
            out.update(_OFFSET[start][k] for k in waits)


_OFFSET = {start: tuple(range(start, end)) for start, end, _ in _GROUP_SLICES}


@bounded(maxsize=1 << 13)
def _group_waits(key: tuple[int, ...], honors: bool, others_pair: int, budget: int
                 ) -> tuple[int, ...]:
    """The kinds of a group whose one more tile leaves the whole hand complete with
    ``budget`` jokers to spare for this group (the others' melds paid for), the pair
    made here or elsewhere for ``others_pair`` jokers."""
    return tuple(k for k, (no_pair, with_pair) in enumerate(_costs_plus_one(key, honors))
                 if min(no_pair + others_pair, with_pair) <= budget)


def _completes_with_joker(counts: list[int], jokers: int, seven_pairs: bool,
                          costs: Sequence[tuple[int, int]]) -> bool:
    # `is_complete(counts, jokers + 1)`, on the group costs already counted.
    if (sum(counts) + jokers + 1) % 3 == 2 and _min_jokers(costs) <= jokers + 1:
        return True
    return seven_pairs and seven_pairs_luxury(counts, jokers + 1) is not None


# ---------------------------------------------------------------------------
# Shanten


@bounded(maxsize=1 << 14)
def _partials(key: tuple[int, ...], honors: bool) -> frozenset[tuple[int, int, int]]:
    """Every (melds, partial melds, pair) a group can hold at once (not only maximal):
    the same for every group of one shape (`_shape`), worked out once a shape."""
    return _shape_partials(_shape(key, honors), honors)


def _shape(key: tuple[int, ...], honors: bool) -> tuple[int, ...]:
    """A group's counts without what does not change its structures: with no chows
    (honours, or a target of pungs) the order of the counts, and the kinds not held; in
    a suit, the empty ranks at either end and the direction (a chow or partial read
    backwards is one too). Many hands share a shape: the 405,350 counts of a suit of at
    most 14 tiles have 133,682 shapes, the 43,130 of the honours 177."""
    if honors:
        return tuple(sorted(n for n in key if n))
    low, high = 0, len(key)
    while low < high and not key[low]:
        low += 1
    while high > low and not key[high - 1]:
        high -= 1
    part = key[low:high]
    back = part[::-1]
    return back if back < part else part


@bounded(maxsize=1 << 14)
def _shape_partials(key: tuple[int, ...], honors: bool) -> frozenset[tuple[int, int, int]]:
    """`_partials` of a group given by its `_shape`."""
    i = _first(key)
    if i < 0:
        return _NOTHING_YET
    apart = _apart(key, i, honors)
    if apart is not None:
        return _joined(_partials_of(apart[0], honors), _partials_of(apart[1], honors))
    # Each way to use the lowest tile: (the rest of the group, melds, partials, pair).
    c, zeros = key[i], key[:i]
    ways = [((*zeros, c - 1, *key[i + 1:]), 0, 0, 0)]  # the tile stays a loose single
    if c >= 3:
        ways.append(((*zeros, c - 3, *key[i + 1:]), 1, 0, 0))
    if c >= 2:
        two = (*zeros, c - 2, *key[i + 1:])
        ways.append((two, 0, 0, 1))
        ways.append((two, 0, 1, 0))
    if not honors:
        n = len(key)
        up = key[i + 1] if i + 1 < n else 0
        up2 = key[i + 2] if i + 2 < n else 0
        if up and up2:
            ways.append(((*zeros, c - 1, up - 1, up2 - 1, *key[i + 3:]), 1, 0, 0))
        if up:
            ways.append(((*zeros, c - 1, up - 1, *key[i + 2:]), 0, 1, 0))
        if up2:
            ways.append(((*zeros, c - 1, up, up2 - 1, *key[i + 3:]), 0, 1, 0))
    options: set[tuple[int, int, int]] = set()
    for rest, dm, dt, dp in ways:
        for m, t, p in _partials_of(rest, honors):
            if dp + p <= 1:
                options.add((m + dm, t + dt, p + dp))
    return frozenset(_pareto(options))


def _partials_of(key: tuple[int, ...], honors: bool) -> frozenset[tuple[int, int, int]]:
    """`_partials` for the parts and remainders a shape is worked out from (by shape
    only: they would crowd out whole groups' counts in `_partials`' memo)."""
    return _shape_partials(_shape(key, honors), honors)


def _apart(key: tuple[int, ...], i: int, honors: bool
           ) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """The group's tiles in two parts no meld or partial can span, the lowest first (None
    when they cannot be split): honours by kind, suits at two empty ranks in a row (a
    chow or partial spans three ranks at most). Each part without its empty ends: a
    part's structures do not depend on where in the suit it lies, so a new shape is
    mostly made of parts already known."""
    n = len(key)
    if honors:
        rest = i + 1
        while rest < n and not key[rest]:
            rest += 1
        return ((key[i],), key[rest:]) if rest < n else None
    j = i + 1
    while j + 1 < n:
        if not key[j] and not key[j + 1]:
            rest = j + 2
            while rest < n and not key[rest]:
                rest += 1
            if rest == n:
                return None
            end = j
            return (key[i:end], key[rest:])
        j += 1
    return None


@bounded(maxsize=1 << 13)
def _joined(low: frozenset[tuple[int, int, int]], high: frozenset[tuple[int, int, int]]
            ) -> frozenset[tuple[int, int, int]]:
    """`_partials` of a group made of two parts no structure spans (`_apart`)."""
    return frozenset(_pareto({(m + m2, t + t2, p + p2) for m, t, p in low
                              for m2, t2, p2 in high if p + p2 <= 1}))


def _pareto(options: set[tuple[int, int, int]]) -> set[tuple[int, int, int]]:
    """The options no other option beats or equals in all three counts.

    Of the options with the same melds and pair only the one with the most partials can
    be kept, so those (a handful) are compared with one another, not every option with
    every other (the per-suit tables fill a group at a time, and this is their cost)."""
    most: dict[tuple[int, int], int] = {}
    for m, t, p in options:
        if most.get((m, p), -1) < t:
            most[(m, p)] = t
    return {(m, t, p) for (m, p), t in most.items()
            if not any(m2 >= m and p2 >= p and t2 >= t and (m2, p2) != (m, p)
                       for (m2, p2), t2 in most.items())}


def standard_shanten(counts: Sequence[int], jokers: int = 0, blocks: int = 4, *,
                     sequences: bool = True) -> int:
    """Shanten of the standard shape on natural counts: ``blocks`` melds still to make
    (4 minus the melds laid down). With ``sequences`` off only pungs count (the computer
    player's all-pungs target)."""
    return _standard_shanten(tuple(counts), jokers, blocks, sequences)


@bounded(maxsize=1 << 12)
def _standard_shanten(counts: tuple[int, ...], jokers: int, blocks: int,
                      sequences: bool) -> int:
    combos = _NOTHING_YET
    for start, end, honors in _GROUP_SLICES:
        group = _partials(counts[start:end], honors or not sequences)
        if group != _NOTHING_YET:  # an empty group adds nothing
            combos = _merge(combos, group, blocks)
    return max(-1, _fewest_needed(combos, sum(counts), blocks) - jokers - 1)


_NOTHING_YET = frozenset({(0, 0, 0)})


def groups_shanten(groups: Iterable[tuple[tuple[int, ...], bool]], jokers: int, blocks: int
                   ) -> int:
    """`standard_shanten` of a hand given group by group: each group's counts (nine of a
    suit, or seven honours) and whether it makes no chows; a group not given holds
    nothing. The computer player's targets keep a suit or two: no 34 counts to build."""
    combos = _NOTHING_YET
    natural = 0
    for key, honors in groups:
        group = _partials(key, honors)
        if group != _NOTHING_YET:  # loose tiles alone add no structure
            combos = _merge(combos, group, blocks)
        natural += sum(key)
    return max(-1, _fewest_needed(combos, natural, blocks) - jokers - 1)


def shanten_plus_each(counts: Sequence[int], jokers: int, blocks: int, kinds: Iterable[int],
                      *, sequences: bool = True) -> dict[int, int]:
    """`standard_shanten` of ``counts`` with one more tile of each of ``kinds`` (the
    computer player's count of useful tiles)."""
    return _shanten_each(tuple(counts), jokers, blocks, kinds, 1, sequences)


def shanten_minus_each(counts: Sequence[int], jokers: int, blocks: int, kinds: Iterable[int],
                       *, sequences: bool = True) -> dict[int, int]:
    """`standard_shanten` of ``counts`` with one tile fewer of each of ``kinds`` (each
    held at least once: the computer player weighing its discards)."""
    return _shanten_each(tuple(counts), jokers, blocks, kinds, -1, sequences)


def _shanten_each(counts: tuple[int, ...], jokers: int, blocks: int, kinds: Iterable[int],
                  delta: int, sequences: bool) -> dict[int, int]:
    """`standard_shanten` with ``delta`` tiles more of each kind: the same structures as
    `standard_shanten` merges, with the kind's group merged last (a group left empty
    adds nothing: its merge changes nothing). Each group's kinds are answered together,
    by one look-up of `_group_each`."""
    keys = [(counts[start:end], honors or not sequences) for start, end, honors in _GROUP_SLICES]
    groups = [_partials(key, honors) for key, honors in keys]
    # A merge clamps sums, so merging is associative and commutative: the groups other
    # than the kind's are merged once per group (``others``), whatever the order.
    others: list[frozenset[tuple[int, int, int]] | None] = [None] * len(groups)
    natural = sum(counts)
    spare = jokers + 1
    out: dict[int, int] = {}
    group = -1
    rest = _NOTHING_YET
    key, honors, offset = keys[0][0], False, 0
    table: tuple[int | None, ...] = ()
    for kind in kinds:  # sorted, as they mostly are, a group's kinds come together
        g = _GROUP_OF[kind]
        if g != group:
            group, offset = g, 9 * g
            key, honors = keys[g]
            known = others[g]
            rest = others[g] = _merged(groups[:g] + groups[g + 1:], blocks) \
                if known is None else known
            table = _group_each(key, honors, g == 3, rest, natural, blocks, delta)
        needed = table[kind - offset]
        if needed is None:  # a kind the table leaves out (far from the group's tiles)
            changed = _partials_changed(key, honors, kind - offset, delta)
            needed = _needed_with(rest, changed, natural + delta, blocks)
        needed -= spare
        out[kind] = needed if needed > -1 else -1
    return out


@bounded(maxsize=1 << 14)
def _group_each(key: tuple[int, ...], honours: bool, honour_group: bool,
                rest: frozenset[tuple[int, int, int]], natural: int, blocks: int, delta: int
                ) -> tuple[int | None, ...]:
    """`_fewest_needed` of a hand of ``natural`` tiles with ``delta`` tiles more of each
    kind of one group (``key``; ``rest``: the other groups merged), by the kind's place
    in the group. With one tile fewer, the kinds held; with one more, the kinds near the
    group's tiles (`_near_in_group`); None for the others. One look-up answers a group's
    kinds at once, and it recurs more than the whole hand does: ``rest`` stands for
    every hand whose other groups hold the same structures."""
    natural += delta
    return tuple(None if changed is None else _needed_with(rest, changed, natural, blocks)
                 for changed in _changed_structures(key, honours, honour_group, delta))


@bounded(maxsize=1 << 14)
def _changed_structures(key: tuple[int, ...], honours: bool, honour_group: bool, delta: int
                        ) -> tuple[Structures | None, ...]:
    """`_partials` of a group with ``delta`` tiles more of each kind, by the kind's place:
    for `_group_each`, the kinds it answers (None for the others). A group's own, whatever
    the rest of the hand: looked up far more often than worked out."""
    wanted = tuple(n > 0 for n in key) if delta < 0 else _near_in_group(key, honour_group)
    changed = list(key)
    out: list[Structures | None] = []
    for i, want in enumerate(wanted):
        if not want:
            out.append(None)
            continue
        changed[i] += delta
        out.append(_partials_of(tuple(changed), honours))
        changed[i] -= delta
    return tuple(out)


Structures = frozenset[tuple[int, int, int]]
"""A group's (melds, partial melds, pair) options (`_partials`), or several groups'
merged (`_merge`)."""


@bounded(maxsize=1 << 13)
def _near_in_group(key: tuple[int, ...], honour_group: bool) -> tuple[bool, ...]:
    """Whether each kind of a group is held or, in a suit, one or two ranks from a held
    one (the kinds the computer player asks about)."""
    if honour_group:
        return tuple(n > 0 for n in key)
    held = [i for i, n in enumerate(key) if n]
    return tuple(any(abs(i - h) <= 2 for h in held) for i in range(len(key)))


_GROUP_OF = tuple(kind // 9 if kind < 27 else 3 for kind in range(NUM_KINDS))


@bounded(maxsize=1 << 14)
def _partials_changed(key: tuple[int, ...], honors: bool, index: int, delta: int
                      ) -> frozenset[tuple[int, int, int]]:
    """`_partials` of a group with ``delta`` more tiles of its ``index``-th kind."""
    changed = list(key)
    changed[index] += delta
    return _partials(tuple(changed), honors)


@bounded(maxsize=1 << 14)
def _needed_with(rest: frozenset[tuple[int, int, int]], group: frozenset[tuple[int, int, int]],
                 natural: int, blocks: int) -> int:
    """`_fewest_needed` of the other groups' structures merged with one more group's."""
    return _fewest_needed(_merge(rest, group, blocks), natural, blocks)


def _merged(groups: Iterable[frozenset[tuple[int, int, int]]], blocks: int
            ) -> frozenset[tuple[int, int, int]]:
    combos = _NOTHING_YET
    for group in groups:
        if group != _NOTHING_YET:  # an empty group adds nothing
            combos = _merge(combos, group, blocks)
    return combos


@bounded(maxsize=1 << 13)
def _merge(combos: frozenset[tuple[int, int, int]], group: frozenset[tuple[int, int, int]],
           blocks: int) -> frozenset[tuple[int, int, int]]:
    """The (melds, partials, pair) the groups so far and one more can hold at once.

    Structures beyond the blocks needed count as loose tiles anyway, so clamping
    while merging gives the same answer from far fewer combinations. (Both sets are
    memoised values, whose hashes Python keeps: a hit costs one look-up.)"""
    merged: set[tuple[int, int, int]] = set()
    for m, t, p in combos:
        for gm, gt, gp in group:
            if p + gp <= 1:
                mm = min(m + gm, blocks)
                merged.add((mm, min(t + gt, blocks - mm), p + gp))
    return frozenset(merged)


@bounded(maxsize=1 << 12)
def _fewest_needed(combos: frozenset[tuple[int, int, int]], natural: int, blocks: int
                   ) -> int:
    """Fewest tiles still needed over the structures the hand can hold at once."""
    best_needed = _INF
    for m, t, p in combos:
        empty = blocks - m - t
        loose = natural - 3 * m - 2 * t - 2 * p
        needed = t + 3 * empty + (0 if p else 2) - max(0, min(loose, empty + 1 - p))
        best_needed = min(best_needed, needed)
    return best_needed


def seven_pairs_shanten(counts: Sequence[int], jokers: int = 0) -> int:
    """Shanten of seven pairs (four alike counting as two pairs)."""
    return _seven_pairs_shanten(sum(n // 2 for n in counts), sum(1 for n in counts if n & 1),
                                jokers)


def seven_pairs_shanten_of(pairs: int, singles: int, jokers: int) -> int:
    """`seven_pairs_shanten` of a hand holding ``pairs`` pairs and ``singles`` odd
    tiles (its counts halved and their remainders, summed)."""
    return _seven_pairs_shanten(pairs, singles, jokers)


def _seven_pairs_shanten(pairs: int, singles: int, jokers: int) -> int:
    pairs = min(7, pairs)
    missing = 7 - pairs
    needed = min(singles, missing) + 2 * max(0, missing - singles)
    return max(-1, needed - jokers - 1)


def analyse(concealed: Iterable[Tile], melds: Iterable[Meld] = (),
            wildcards: Wildcards = NO_WILDCARDS, shapes: ShapeRules = STANDARD_ONLY
            ) -> HandAnalysis:
    """Convenience constructor: ``analyse(parse_tiles("123m..."))``."""
    return HandAnalysis(tuple(concealed), tuple(melds), wildcards, shapes)
