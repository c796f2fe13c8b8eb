"""Hand analysis (engine/analysis.py): known hands, then properties against brute force.

The brute-force checkers below share no code with the engine: a complete hand is found
by plain recursive decomposition, and a wildcard (财神) by trying every tile it could
stand for (the rules let a 财神 stand even for a fifth copy). Waits are the tiles whose
addition completes the shape, less those that cannot arrive because every copy in play
is already held (in hand or in melds); a hand whose only wait is such a dead tile
(1111m + three melds) is not ready, so its shanten is 1.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from functools import cache

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from engine import analysis
from engine.analysis import (
    NO_WILDCARDS,
    STANDARD_ONLY,
    Group,
    GroupKind,
    HandAnalysis,
    Shape,
    ShapeRules,
    Wildcards,
    analyse,
    discard_waits,
    groups_shanten,
    is_all_melds,
    is_complete,
    is_six_pairs,
    seven_pairs_luxury,
    seven_pairs_reading,
    shanten_minus_each,
    shanten_plus_each,
    standard_readings,
    standard_shanten,
)
from engine.melds import Meld, MeldKind
from engine.tiles import NUM_KINDS, PLAYING_TILES, Tile, counts_of, parse_tiles

FIXED = Wildcards.fixed()
SEVEN = ShapeRules(seven_pairs=True)
JUMBLE = ShapeRules(honours_jumble=True)
ALL_TILES = frozenset(PLAYING_TILES)
HONOURS = frozenset(t for t in PLAYING_TILES if t.is_honor)


def tiles(text: str) -> tuple[Tile, ...]:
    return tuple(parse_tiles(text, max_copies=False))


def counts(text: str) -> list[int]:
    return counts_of(tiles(text)) if text else [0] * NUM_KINDS


def hand(text: str, wild: Wildcards = NO_WILDCARDS, shapes: ShapeRules = STANDARD_ONLY,
         melds: tuple[Meld, ...] = ()) -> HandAnalysis:
    return analyse(tiles(text), melds, wild, shapes)


def pong(text: str, seat: int = 1) -> Meld:
    t = tiles(text)
    return Meld(MeldKind.PONG, t, t[0], from_seat=seat)


def chi(text: str, seat: int = 3) -> Meld:
    t = tiles(text)
    return Meld(MeldKind.CHI, t, min(t), from_seat=seat)


def concealed_kong(text: str) -> Meld:
    t = tiles(text)
    return Meld(MeldKind.CONCEALED_KONG, t, t[0])


# ===========================================================================
# Brute force (independent of the engine)


def _chow_ok(i: int) -> bool:
    return i < 27 and i % 9 <= 6


@cache
def bf_decomposes(c: tuple[int, ...], need_pair: bool) -> bool:
    """Natural tiles only: all of ``c`` into melds (and exactly one pair if asked)."""
    i = next((k for k, n in enumerate(c) if n), -1)
    if i < 0:
        return not need_pair
    lst = list(c)
    if lst[i] >= 3:
        lst[i] -= 3
        if bf_decomposes(tuple(lst), need_pair):
            return True
        lst[i] += 3
    if need_pair and lst[i] >= 2:
        lst[i] -= 2
        if bf_decomposes(tuple(lst), False):
            return True
        lst[i] += 2
    if _chow_ok(i) and lst[i + 1] and lst[i + 2]:
        lst[i] -= 1
        lst[i + 1] -= 1
        lst[i + 2] -= 1
        if bf_decomposes(tuple(lst), need_pair):
            return True
    return False


def substitutions(c: list[int], jokers: int
                  ) -> Iterator[tuple[list[int], tuple[int, ...]]]:
    """Every natural count array the jokers can turn ``c`` into."""
    for subs in itertools.combinations_with_replacement(range(NUM_KINDS), jokers):
        full = list(c)
        for k in subs:
            full[k] += 1
        yield full, subs


def bf_complete(c: list[int], jokers: int) -> bool:
    if (sum(c) + jokers) % 3 != 2:
        return False
    return any(bf_decomposes(tuple(full), True) for full, _ in substitutions(c, jokers))


def bf_all_melds(c: list[int], jokers: int) -> bool:
    if (sum(c) + jokers) % 3:
        return False
    return any(bf_decomposes(tuple(full), False) for full, _ in substitutions(c, jokers))


def bf_seven_pairs_luxury(c: list[int], jokers: int) -> int | None:
    """Max over substitutions of the number of fours, when all counts are even."""
    if sum(c) + jokers != 14:
        return None
    best = None
    for full, _ in substitutions(c, jokers):
        if all(n % 2 == 0 for n in full):
            lux = sum(n // 4 for n in full)
            best = lux if best is None else max(best, lux)
    return best


def bf_six_pairs(c: list[int], jokers: int) -> bool:
    if sum(c) + jokers != 12:
        return False
    return any(all(n % 2 == 0 for n in full) for full, _ in substitutions(c, jokers))


def _norm(kind: GroupKind, face: int, wild: int) -> Group:
    size = 2 if kind is GroupKind.PAIR else 3
    if wild == size:
        return Group(GroupKind.PAIR if size == 2 else GroupKind.PUNG, None, wild)
    return Group(kind, Tile(face), wild)


def _bf_groups(nat: list[int], wild: list[int], need_pair: bool) -> Iterator[list[Group]]:
    """Every split of natural + wild-marked tiles into melds and one pair, as
    lists of groups (each group counting the wild-marked tiles it takes)."""
    i = next((k for k in range(NUM_KINDS) if nat[k] or wild[k]), -1)
    if i < 0:
        if not need_pair:
            yield []
        return
    shapes: list[tuple[GroupKind, tuple[int, ...]]] = [(GroupKind.PUNG, (i, i, i))]
    if need_pair:
        shapes.append((GroupKind.PAIR, (i, i)))
    if _chow_ok(i):
        shapes.append((GroupKind.CHOW, (i, i + 1, i + 2)))
    for kind, needed in shapes:
        for choice in itertools.product((False, True), repeat=len(needed)):
            # choice[j]: the j-th tile of the group is a wild-marked one
            taken_nat = [0] * NUM_KINDS
            taken_wild = [0] * NUM_KINDS
            for t, is_wild in zip(needed, choice, strict=True):
                (taken_wild if is_wild else taken_nat)[t] += 1
            if any(taken_nat[k] > nat[k] or taken_wild[k] > wild[k] for k in set(needed)):
                continue
            for k in set(needed):
                nat[k] -= taken_nat[k]
                wild[k] -= taken_wild[k]
            group = _norm(kind, i, sum(choice))
            for rest in _bf_groups(nat, wild, need_pair and kind is not GroupKind.PAIR):
                yield [group, *rest]
            for k in set(needed):
                nat[k] += taken_nat[k]
                wild[k] += taken_wild[k]


def _key(groups: Iterable[Group]) -> tuple[Group, ...]:
    return tuple(sorted(groups, key=Group.sort_key))


def bf_readings(c: list[int], jokers: int) -> set[tuple[Group, ...]]:
    if (sum(c) + jokers) % 3 != 2:
        return set()
    found: set[tuple[Group, ...]] = set()
    for _, subs in substitutions(c, jokers):
        wild = [0] * NUM_KINDS
        for k in subs:
            wild[k] += 1
        for groups in _bf_groups(list(c), wild, True):
            found.add(_key(groups))
    return found


def reading_is_partition(groups: tuple[Group, ...], c: list[int], jokers: int) -> bool:
    """The groups' natural tiles and wild counts add up exactly to ``c`` and jokers."""
    if sum(g.wild for g in groups) != jokers:
        return False
    if sum(g.size for g in groups) != sum(c) + jokers:
        return False
    fixed_nat = [0] * NUM_KINDS
    chows: list[Group] = []
    for g in groups:
        if not 0 <= g.wild <= g.size:
            return False
        if g.face is None:
            if g.wild != g.size:
                return False
            continue
        if g.kind is GroupKind.CHOW:
            if not _chow_ok(g.face) or g.wild > 2:
                return False
            chows.append(g)
        else:
            if g.face >= NUM_KINDS or g.wild == g.size:
                return False
            fixed_nat[g.face] += g.size - g.wild
    remaining = [n - f for n, f in zip(c, fixed_nat, strict=True)]
    if min(remaining) < 0:
        return False

    def place(idx: int) -> bool:
        if idx == len(chows):
            return not any(remaining)
        g = chows[idx]
        assert g.face is not None, "a chow has its face"
        run = (g.face, g.face + 1, g.face + 2)
        for natural in itertools.combinations(run, 3 - g.wild):
            if all(remaining[t] for t in natural):
                for t in natural:
                    remaining[t] -= 1
                ok = place(idx + 1)
                for t in natural:
                    remaining[t] += 1
                if ok:
                    return True
        return False

    return place(0)


# --- physical tiles, wildcard modes ---------------------------------------


Mode = tuple[Tile | None, dict[Tile, Tile], int]
ModeChoice = tuple[str, Tile | None]
"""A wildcard mode as the strategies draw it: its name, and the turned tile of a flip."""
Counts = tuple[list[int], int]
"""Natural counts by kind, and jokers."""


def bf_mode(mode: str, turned: Tile | None = None) -> Mode:
    """(the wild tile, physical -> natural stand-ins, copies of the wild tile in play),
    straight from the rule pages."""
    if mode == "none":
        return None, {}, 0
    if mode == "fixed":
        return Tile.WHITE, {}, 4
    if turned is Tile.WHITE:
        return Tile.WHITE, {}, 3
    assert turned is not None, "a flip mode has its turned tile"
    return turned, {Tile.WHITE: turned}, 3


def engine_mode(mode: str, turned: Tile | None = None) -> Wildcards:
    if mode == "none":
        return Wildcards.none()
    if mode == "fixed":
        return Wildcards.fixed()
    assert turned is not None, "a flip mode has its turned tile"
    return Wildcards.flip(turned)


def bf_split(physical: Sequence[Tile], mode: Mode) -> tuple[list[int], int]:
    joker, stand, _ = mode
    c = [0] * NUM_KINDS
    j = 0
    for t in physical:
        if t == joker:
            j += 1
        else:
            c[stand.get(t, t)] += 1
    return c, j


def bf_is_winning(physical: Sequence[Tile], mode: Mode, melds: Sequence[Meld] = (),
                  shapes: ShapeRules = STANDARD_ONLY) -> bool:
    if len(physical) != 14 - 3 * len(melds):
        return False
    c, j = bf_split(physical, mode)
    if bf_complete(c, j):
        return True
    if shapes.seven_pairs and not melds and bf_seven_pairs_luxury(c, j) is not None:
        return True
    return (shapes.honours_jumble and all(t.is_honor for t in physical)
            and all(t.is_honor for m in melds for t in m.tiles))


def bf_shape_waits(physical: Sequence[Tile], mode: Mode, melds: Sequence[Meld] = (),
                   shapes: ShapeRules = STANDARD_ONLY) -> frozenset[Tile]:
    """Every tile whose addition completes the shape, even one that cannot arrive."""
    return frozenset(t for t in PLAYING_TILES
                     if bf_is_winning((*physical, t), mode, melds, shapes))


def live(physical: Sequence[Tile], mode: Mode, melds: Sequence[Meld] = ()) -> frozenset[Tile]:
    """Tiles that can still arrive: not every copy in play held in hand or melds."""
    held = Counter((*physical, *(t for m in melds for t in m.tiles)))
    return frozenset(t for t in PLAYING_TILES
                     if held[t] < (mode[2] if t == mode[0] else 4))


def bf_waits(physical: Sequence[Tile], mode: Mode, melds: Sequence[Meld] = (),
             shapes: ShapeRules = STANDARD_ONLY) -> frozenset[Tile]:
    return bf_shape_waits(physical, mode, melds, shapes) & live(physical, mode, melds)


def bf_bao_tou(physical: Sequence[Tile], mode: Mode, melds: Sequence[Meld] = (),
               shapes: ShapeRules = STANDARD_ONLY) -> bool:
    if len(physical) != 13 - 3 * len(melds):
        return False
    c, j = bf_split(physical, mode)
    if j == 0:
        return False
    if bf_all_melds(c, j - 1):
        return True
    return shapes.seven_pairs and not melds and bf_six_pairs(c, j - 1)


# ===========================================================================
# Strategies: hands built constructively

CHOW_STARTS = [s * 9 + r for s in range(3) for r in range(7)]
NATURAL_KINDS = [k for k in range(NUM_KINDS) if k != Tile.WHITE]  # 5z is wild or a stand-in
EVERY_KIND = list(range(NUM_KINDS))


@st.composite
def complete_counts(draw: st.DrawFn, melds: int | None = None,
                    kinds: tuple[int, ...] = tuple(EVERY_KIND)) -> list[int]:
    """Natural counts of ``melds`` melds (0–4) and a pair, at most four of a kind."""
    n = draw(st.integers(0, 4)) if melds is None else melds
    c = [0] * NUM_KINDS
    for _ in range(n):
        # Only groups that still fit (at most four of a kind): no rejection needed.
        chows = [s for s in CHOW_STARTS if max(c[s], c[s + 1], c[s + 2]) <= 3]
        pungs = [k for k in kinds if c[k] <= 1]
        if chows and bool(draw(st.booleans())):
            start = draw(st.sampled_from(chows))
            group = (start, start + 1, start + 2)
        else:
            k = draw(st.sampled_from(pungs))
            group = (k, k, k)
        for t in group:
            c[t] += 1
    c[draw(st.sampled_from([k for k in kinds if c[k] <= 2]))] += 2
    return c


def as_list(c: list[int]) -> list[int]:
    return [k for k, n in enumerate(c) for _ in range(n)]


def from_list(lst: Iterable[int]) -> list[int]:
    c = [0] * NUM_KINDS
    for k in lst:
        c[k] += 1
    return c


@st.composite
def jokered(draw: st.DrawFn, c: list[int], jokers: int) -> Counts:
    """Replace ``jokers`` random tiles of ``c`` by jokers (as many as there are tiles)."""
    lst = as_list(c)
    jokers = min(jokers, len(lst))
    order = draw(st.permutations(range(len(lst))))
    keep = sorted(order[jokers:])
    return from_list([lst[i] for i in keep]), jokers


@st.composite
def complete_with_jokers(draw: st.DrawFn, max_jokers: int = 4, melds: int | None = None,
                         kinds: tuple[int, ...] = tuple(EVERY_KIND)) -> Counts:
    c = draw(complete_counts(melds, kinds))
    return draw(jokered(c, draw(st.integers(0, max_jokers))))


@st.composite
def near_complete(draw: st.DrawFn, max_jokers: int = 2, melds: int | None = None,
                  kinds: tuple[int, ...] = tuple(EVERY_KIND)) -> Counts:
    """A complete hand with one natural tile swapped for another kind (often not
    complete any more, sometimes complete again)."""
    c, j = draw(complete_with_jokers(max_jokers, melds, kinds))
    lst = as_list(c)
    assume(lst)
    lst[draw(st.integers(0, len(lst) - 1))] = draw(st.sampled_from(kinds))
    c = from_list(lst)
    assume(max(c) <= 4)
    return c, j


@st.composite
def one_short(draw: st.DrawFn, max_jokers: int = 2, melds: int | None = None,
              kinds: tuple[int, ...] = tuple(EVERY_KIND)) -> Counts:
    """A complete or near-complete hand minus one tile (natural or joker)."""
    if draw(st.booleans()):
        c, j = draw(complete_with_jokers(max_jokers, melds, kinds))
    else:
        c, j = draw(near_complete(max_jokers, melds, kinds))
    lst = as_list(c) + [-1] * j
    lst.pop(draw(st.integers(0, len(lst) - 1)))
    return from_list([k for k in lst if k >= 0]), lst.count(-1)


@st.composite
def random_counts(draw: st.DrawFn, size: int, max_jokers: int = 2,
                  kinds: tuple[int, ...] = tuple(EVERY_KIND)) -> Counts:
    """Any ``size`` tiles (<= 4 of a kind), some of them jokers."""
    j = draw(st.integers(0, min(max_jokers, size)))
    pool = [k for k in kinds for _ in range(4)]
    idx = draw(st.lists(st.integers(0, len(pool) - 1), unique=True,
                        min_size=size - j, max_size=size - j))
    return from_list([pool[i] for i in idx]), j


MODES = st.one_of(
    st.just(("fixed", None)),
    st.sampled_from([t for t in PLAYING_TILES]).map(lambda t: ("flip", t)),
)


def physical_from(c: list[int], jokers: int, mode: str, turned: Tile | None) -> tuple[Tile, ...]:
    """Physical tiles for natural counts (no natural 5z) and jokers in a wildcard mode."""
    joker, stand, _ = bf_mode(mode, turned)
    back = {nat: phys for phys, nat in stand.items()}
    out = [back.get(Tile(k), Tile(k)) for k in as_list(c)]
    if jokers:
        assert joker is not None, "jokers in a mode without wildcards"
        out += [joker] * jokers
    return tuple(out)


def fits_mode(c: list[int], jokers: int, mode: str, turned: Tile | None) -> bool:
    """Whether a physical set can hold these naturals and jokers in this mode."""
    if c[Tile.WHITE]:
        return False
    return jokers <= (4 if mode == "fixed" else 3)


FAST = settings(max_examples=250, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
SLOW = settings(max_examples=60, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


# ===========================================================================
# Unit tests: the win check on counts


@pytest.mark.parametrize("text", [
    "123m456p789s11122z",
    "11122233344455m",
    "1112345678999m1m",
    "22m",
    "123m44p",
    "111222333m7z7z",
    "234567m234567p55s",
    "11z",
])
def test_known_complete(text: str) -> None:
    assert is_complete(counts(text))


@pytest.mark.parametrize("text", [
    "123m456p789s1112z3z",
    "19m19p19s1234567z1z",
    "1122m3344p5566s77z",  # seven pairs is not the standard shape
    "23455z",  # honours never make chows
    "89m1p11s",  # nor do tiles across suits
    "9m12p55s",
    "12m",
    "1m",
    "",
])
def test_known_not_complete(text: str) -> None:
    assert not is_complete(counts(text))


@pytest.mark.parametrize(("text", "jokers", "expected"), [
    ("12m456p789s11122z", 1, True),  # 财神 as 3m
    ("123m456p789s1112z", 1, True),  # as 2z
    ("12m456p789s1112z", 2, True),
    ("456p789s11122z", 3, True),  # three 财神 make a meld of their own
    ("56p789s11122z", 4, True),
    ("123m456p789s111z", 2, True),  # a pair of 财神 alone
    ("123m456p789s", 5, True),
    ("", 2, True),
    ("159m159p159s1234z", 1, False),
    ("1357m1357p1357s", 2, False),
    ("19m19p19s1234z", 4, False),
    ("147m147p147s13z", 3, False),
    ("123m456p789s1112z", 2, False),  # 15 tiles
])
def test_known_with_jokers(text: str, jokers: int, expected: bool) -> None:
    c = counts(text)
    assert is_complete(c, jokers) is expected
    if jokers <= 3:
        assert bf_complete(c, jokers) is expected


def test_jokers_may_stand_for_a_fifth_copy() -> None:
    # 1111m + 财神 as a fifth 1m: 111m 11m(财神) 234p 567p.
    assert is_complete(counts("1111m234p567p"), 1)


def test_all_melds() -> None:
    assert is_all_melds(counts("123456m789p111s"))
    assert is_all_melds(counts("12456m789p111s"), 1)
    assert is_all_melds(counts(""), 3)
    assert not is_all_melds(counts("123456m789p11s"))
    assert not is_all_melds(counts("123456m789p11s"), 2)  # 14 tiles
    assert is_all_melds(counts("123456m789p11s"), 1)


# ===========================================================================
# Wildcard modes


def test_fixed_mode_white_dragons_are_jokers() -> None:
    assert FIXED.joker is Tile.WHITE and FIXED.jokers_in_set == 4
    assert FIXED.plays_as(Tile.WHITE) is None
    assert FIXED.plays_as(Tile.M1) is Tile.M1
    c, j = FIXED.split(tiles("12m5z5z"))
    assert j == 2 and c == counts("12m")


@pytest.mark.parametrize(("text", "jokers", "winning"), [
    ("123m456p789s11122z", 0, True),
    ("12m5z456p789s11122z", 1, True),
    ("12m5z456p789s1112z5z", 2, True),
    ("5z5z5z456p789s11122z", 3, True),
    ("5z5z5z5z56p789s11122z", 4, True),
    ("159m159p159s1234z5z", 1, False),
    ("1357m1357p1357s5z5z", 2, False),
    ("147m147p147s34z5z5z5z", 3, False),
    ("19m19p19s1234z5z5z5z5z", 4, False),
])
def test_fixed_mode_hands(text: str, jokers: int, winning: bool) -> None:
    h = hand(text, FIXED)
    assert h.jokers == jokers
    assert h.is_winning() is winning
    assert bool(h.readings()) is winning
    assert (h.shanten() == -1) is winning


def test_fixed_mode_white_dragon_pair_is_two_jokers() -> None:
    # 5z5z is a pair of 财神 (standing for anything), not a natural pair of 5z.
    h = hand("123m456p789s111z5z5z", FIXED)
    assert h.jokers == 2 and h.is_winning()
    assert any(r.pair == Group(GroupKind.PAIR, None, 2) for r in h.readings())
    assert all(r.wild == 2 for r in h.readings())


def test_flip_mode_turned_tile_is_wild_and_white_stands_in() -> None:
    wild = Wildcards.flip(Tile.M4)
    assert wild.joker is Tile.M4 and wild.jokers_in_set == 3
    assert wild.plays_as(Tile.M4) is None
    assert wild.plays_as(Tile.WHITE) is Tile.M4
    assert wild.plays_as(Tile.M5) is Tile.M5
    c, j = wild.split(tiles("4m5z5z1z"))
    assert j == 1 and c == counts("44m1z")


def test_flip_mode_white_plays_as_the_turned_tile() -> None:
    wild = Wildcards.flip(Tile.M4)
    # 5z is a natural 4m here: 123m 456m 789p 111s 22s, no jokers at all.
    h = hand("123m5z56m789p111s22s", wild)
    assert h.jokers == 0 and h.is_winning()
    assert all(r.wild == 0 for r in h.readings())
    # The same tiles with 5z as a 财神 (fixed mode) also win; but a hand that needs
    # the 5z as something other than 4m does not win in flip mode.
    h2 = hand("12m5z456p789s11122z", wild)
    assert not h2.is_winning()
    assert hand("12m5z456p789s11122z", FIXED).is_winning()
    # ...while the turned tile's other copies are 财神: 4m stands for 3m.
    assert hand("12m4m456p789s11122z", wild).is_winning()
    assert hand("12m4m456p789s11122z", wild).jokers == 1


def test_flip_mode_honour_turned() -> None:
    wild = Wildcards.flip(Tile.EAST)
    h = hand("123m456p789s5z5z5z22z", wild)  # 5z5z5z = a pung of East
    assert h.jokers == 0 and h.counts[Tile.EAST] == 3 and h.is_winning()
    h = hand("123m456p789s1z1z1z22z", wild)  # three 财神
    assert h.jokers == 3 and h.is_winning()


def test_flip_mode_turned_white() -> None:
    wild = Wildcards.flip(Tile.WHITE)
    assert wild.joker is Tile.WHITE and wild.stand_in == () and wild.jokers_in_set == 3
    assert wild.plays_as(Tile.WHITE) is None
    h = hand("12m5z456p789s11122z", wild)
    assert h.jokers == 1 and h.is_winning()
    assert hand("123456m789p111s5z", wild).is_bao_tou()


def test_flip_a_flower_is_refused() -> None:
    with pytest.raises(ValueError, match="flower"):
        Wildcards.flip(Tile.SPRING)


def test_no_wildcards() -> None:
    h = hand("123m456p789s111z5z5z")
    assert h.jokers == 0 and h.is_winning()
    assert NO_WILDCARDS.plays_as(Tile.WHITE) is Tile.WHITE


# ===========================================================================
# Seven pairs


@pytest.mark.parametrize(("text", "jokers", "luxury"), [
    ("11223344556677m", 0, 0),
    ("11112233445566m", 0, 1),  # four alike = two pairs, one 豪华
    ("11112222334455m", 0, 2),
    ("1111222233334444m", 0, None),  # 16 tiles
    ("1111222233334m", 1, 3),
    ("112233445566m", 2, 1),  # the spare pair of 财神 turns a pair into a four
    ("1122334455m", 4, 2),
    ("11223344556m", 3, 1),
    ("1122334455667m", 1, 0),
    ("123456m", 8, 1),
    ("1112223344556m", 1, None),  # three odd counts, one 财神
    ("123m456p789s11122z", 0, None),
    ("11223344556677m", 1, None),
])
def test_seven_pairs_luxury(text: str, jokers: int, luxury: int | None) -> None:
    assert seven_pairs_luxury(counts(text), jokers) == luxury
    if jokers <= 2:
        assert bf_seven_pairs_luxury(counts(text), jokers) == luxury


def test_seven_pairs_needs_the_shape_rule() -> None:
    text = "1122m3344p5566s77z"
    assert not hand(text).is_winning()
    h = hand(text, shapes=SEVEN)
    assert h.is_winning()
    [reading] = h.readings()
    assert reading.shape is Shape.SEVEN_PAIRS and reading.luxury == 0
    assert len(reading.groups) == 7


def test_seven_pairs_four_alike_is_luxury() -> None:
    h = hand("1111m3344p5566s77z", shapes=SEVEN)
    assert h.is_winning()
    pairs = [r for r in h.readings() if r.shape is Shape.SEVEN_PAIRS]
    assert [r.luxury for r in pairs] == [1]
    assert len(pairs[0].groups) == 7


def test_seven_pairs_with_jokers_prefer_fours() -> None:
    h = hand("1122m3344p5566s5z5z", FIXED, SEVEN)
    assert h.is_winning()
    [pairs] = [r for r in h.readings() if r.shape is Shape.SEVEN_PAIRS]
    assert pairs.luxury == 1
    assert pairs.wild == 2
    assert len(pairs.groups) == 7


def test_seven_pairs_reading_groups_cover_the_tiles() -> None:
    for text, jokers in (("1122334455667m", 1), ("1111222233334m", 1), ("1122334455m", 4),
                         ("11112233445566m", 0)):
        reading = seven_pairs_reading(counts(text), jokers)
        assert reading is not None
        assert len(reading.groups) == 7
        assert all(g.kind is GroupKind.PAIR for g in reading.groups)
        assert reading.wild == jokers
        assert reading_is_partition(reading.groups, counts(text), jokers)
    assert seven_pairs_reading(counts("123m456p789s11122z"), 0) is None


def test_six_pairs() -> None:
    assert is_six_pairs(counts("112233m4455p66s"))
    assert is_six_pairs(counts("112233m4455p6s"), 1)
    assert is_six_pairs(counts("1111m4455p66s"), 2)
    assert not is_six_pairs(counts("112233m4455p67s"))
    assert not is_six_pairs(counts("112233m4455p66s7z"))


# ===========================================================================
# 暴头


def test_bao_tou_fixed_any_tile_completes() -> None:
    h = hand("123456m789p111s5z", FIXED)
    assert h.is_bao_tou()
    assert h.waits() == ALL_TILES
    for t in PLAYING_TILES:
        assert h.with_tile(t).is_winning(), t
    assert h.shanten() == 0


def test_bao_tou_six_pairs_needs_seven_pairs() -> None:
    text = "112233m4455p66s5z"
    # 112233m is two chows, but 4455p66s is not melds: only six pairs make it 暴头.
    assert not hand(text, FIXED).is_bao_tou()
    h = hand(text, FIXED, SEVEN)
    assert h.is_bao_tou()
    assert h.waits() == ALL_TILES
    for t in PLAYING_TILES:
        assert h.with_tile(t).is_winning(), t


def test_bao_tou_needs_a_joker_and_thirteen_tiles() -> None:
    assert not hand("123456m789p111s1z").is_bao_tou()  # no 财神: a single wait on 1z
    assert hand("123456m789p111s1z").waits() == {Tile.EAST}
    assert not hand("123456m789p111s5z1z", FIXED).is_bao_tou()  # 14 tiles
    assert not hand("123456m789p112s5z", FIXED).is_bao_tou()  # waiting, but not 暴头
    assert hand("123456m789p112s5z", FIXED).waits()


def test_bao_tou_with_two_jokers_and_melds() -> None:
    assert hand("123456m789p11s5z5z", FIXED).is_bao_tou()
    h = hand("123m456p789s5z", FIXED, melds=(pong("777z"),))
    assert h.is_bao_tou()
    assert h.waits() == ALL_TILES
    assert hand("5z", FIXED, melds=(pong("777z"), pong("111z"), chi("123m"),
                                     concealed_kong("9999p"))).is_bao_tou()


def test_bao_tou_flip_mode() -> None:
    wild = Wildcards.flip(Tile.P3)
    h = hand("123456m789p111s3p", wild)
    assert h.is_bao_tou() and h.waits() == ALL_TILES
    # 5z is a natural 3p here, not a 财神.
    assert not hand("123456m789p111s5z", wild).is_bao_tou()


# ===========================================================================
# Shanghai honours jumble


def test_jumble_any_honours() -> None:
    text = "12345671234566z"  # no melds, no pairs shape: only the jumble reads it
    assert not hand(text).is_winning()
    assert not hand(text, shapes=SEVEN).is_winning()
    h = hand(text, shapes=JUMBLE)
    assert h.is_winning()
    assert any(r.shape is Shape.HONOURS_JUMBLE for r in h.readings())
    assert h.shanten() == -1


def test_jumble_counts_the_melds() -> None:
    h = hand("12345671234z", shapes=JUMBLE, melds=(pong("666z"),))
    assert h.is_winning()
    assert not hand("12345671234z", shapes=JUMBLE, melds=(pong("666s"),)).is_winning()
    assert not hand("12345671234z", shapes=JUMBLE, melds=(chi("123m"),)).is_winning()
    assert hand("12344z", shapes=JUMBLE,
                melds=(pong("555z"), pong("666z"), concealed_kong("7777z"))).is_winning()


def test_jumble_refuses_a_suit_tile() -> None:
    assert not hand("1234567123456z1m", shapes=JUMBLE).is_winning()


def test_jumble_waits_and_shanten() -> None:
    h = hand("1234567123456z", shapes=JUMBLE)  # 13 honours: any honour completes
    assert h.waits() >= HONOURS
    assert h.shanten() == 0
    assert h.waits() == bf_waits(h.concealed, bf_mode("none"), shapes=JUMBLE)
    h = hand("123456712345z1m", shapes=JUMBLE)
    assert h.shanten() == 1
    assert h.waits() == bf_waits(h.concealed, bf_mode("none"), shapes=JUMBLE)
    # With a non-honour meld the jumble is out of reach.
    h = hand("1234567123z", shapes=JUMBLE, melds=(chi("123m"),))
    assert not h.waits() and h.shanten() > 0


# ===========================================================================
# Waits


@pytest.mark.parametrize(("text", "expected"), [
    ("1112345678999m", "123456789m"),
    ("13m456p789s11122z", "2m"),
    ("123m456p789s1122z", "12z"),
    ("123m456p789s1112z", "2z"),
    ("2345m456p789s111z", "25m"),
    ("12m456p789s11122z", "3m"),
    ("89m456p789s11122z", "7m"),
    ("1122m", ""),  # 4 tiles: not one short of a complete hand
    ("19m19p19s1234567z", ""),
])
def test_waits_classic(text: str, expected: str) -> None:
    h = hand(text)
    assert h.waits() == frozenset(tiles(expected) if expected else ())
    assert h.waits() == bf_waits(h.concealed, bf_mode("none"))


def test_waits_with_melds() -> None:
    h = hand("2345m", melds=(pong("111z"), chi("456p"), pong("999s")))
    assert h.waits() == {Tile.M2, Tile.M5}


def test_waits_with_a_joker_include_the_joker() -> None:
    h = hand("13m456p789s1112z5z", FIXED)
    assert Tile.WHITE in h.waits()  # a drawn 财神 completes anything that waits
    assert h.waits() == bf_waits(h.concealed, bf_mode("fixed"))


def test_waits_flip_mode_white_stands_in() -> None:
    wild = Wildcards.flip(Tile.M2)
    h = hand("13m456p789s11122z", wild)
    # 2m itself is a 财神 (completes), and 5z plays as 2m (completes).
    assert h.waits() == {Tile.M2, Tile.WHITE}


def test_waits_seven_pairs() -> None:
    h = hand("1122m3344p5566s7z", shapes=SEVEN)
    assert Tile.RED in h.waits()
    assert hand("1122m3344p5566s7z").waits() == frozenset()


def test_waits_leave_out_tiles_that_cannot_arrive() -> None:
    # 1111m + three melds: only a fifth 1m would complete it.
    h = hand("1111m234p567p789s")
    assert h.with_tile(Tile.M1).is_winning()
    assert h.waits() == frozenset()
    assert h.shanten() == 1  # ready in shape only: one exchange (draw X, drop 1m) fixes it
    assert hand("1111m234p567p789s1z").shanten() == 0  # drop 1m: 111m + 1z, waiting on 1z
    assert hand("1111m234p567p789s").with_tile(Tile.EAST).shanten() == 0
    # All four 财神 held: a fifth cannot be drawn, every other tile completes (暴头).
    h = hand("123m456p789s5z5z5z5z", FIXED)
    assert h.is_bao_tou()
    assert h.waits() == ALL_TILES - {Tile.WHITE}
    # Flip mode: three 财神 in play; 5z has four copies (it plays as the turned tile).
    h = hand("123m456p789s2m2m2m1z", Wildcards.flip(Tile.M2))
    assert Tile.M2 not in h.waits() and Tile.EAST in h.waits()
    h = hand("123m456p789s5z5z5z1z", Wildcards.flip(Tile.M2))
    assert Tile.WHITE in h.waits() and Tile.M2 in h.waits()
    # Copies in melds count as held.
    h = hand("1m234p", melds=(pong("111m"), pong("777z"), chi("789s")))
    assert h.with_tile(Tile.M1).is_winning() and Tile.M1 not in h.waits()


def test_waits_empty_when_not_one_short() -> None:
    assert hand("123m456p789s11122z").waits() == frozenset()
    assert hand("123m456p789s1z").waits() == frozenset()


# ===========================================================================
# Shanten


@pytest.mark.parametrize(("text", "wild", "shapes", "expected"), [
    ("123m456p789s11122z", NO_WILDCARDS, STANDARD_ONLY, -1),
    ("123m456p789s1122z", NO_WILDCARDS, STANDARD_ONLY, 0),
    ("1112345678999m", NO_WILDCARDS, STANDARD_ONLY, 0),
    ("19m19p19s1234567z", NO_WILDCARDS, STANDARD_ONLY, 8),
    ("19m19p19s1234567z", NO_WILDCARDS, SEVEN, 6),
    ("19m19p19s1234567z1z", NO_WILDCARDS, STANDARD_ONLY, 7),
    ("1122m3344p5566s7z", NO_WILDCARDS, SEVEN, 0),
    ("1122m3344p5566s77z", NO_WILDCARDS, SEVEN, -1),
    ("1122m3344p5566s77z", NO_WILDCARDS, STANDARD_ONLY, 3),
    ("1111m3344p5566s77z", NO_WILDCARDS, SEVEN, -1),
    ("1122m3344p5567s1z", NO_WILDCARDS, SEVEN, 1),
    ("147m258p369s1234z", NO_WILDCARDS, STANDARD_ONLY, 8),
    ("123m456p789s1123z", NO_WILDCARDS, STANDARD_ONLY, 1),
    ("135m456p789s1122z", NO_WILDCARDS, STANDARD_ONLY, 1),
    ("19m19p19s123467z5z", FIXED, STANDARD_ONLY, 7),
    ("19m19p19s123456z5z", FIXED, STANDARD_ONLY, 6),  # the hand's own 5z is wild too
    ("123456m789p111s5z", FIXED, STANDARD_ONLY, 0),
    ("12m5z456p789s11122z", FIXED, STANDARD_ONLY, -1),
    ("147m258p369s12z5z5z", FIXED, STANDARD_ONLY, 6),
])
def test_shanten_known(text: str, wild: Wildcards, shapes: ShapeRules, expected: int) -> None:
    assert hand(text, wild, shapes).shanten() == expected


def test_shanten_with_melds() -> None:
    assert hand("2345m", melds=(pong("111z"), chi("456p"), pong("999s"))).shanten() == 0
    assert hand("2355m", melds=(pong("111z"), chi("456p"), pong("999s"))).shanten() == 0
    assert hand("2359m", melds=(pong("111z"), chi("456p"), pong("999s"))).shanten() == 1
    assert hand("23455m", melds=(pong("111z"), chi("456p"), pong("999s"))).shanten() == -1


# ===========================================================================
# Readings


def test_readings_of_a_classic_hand() -> None:
    # 111 222 333m + 44m: also 123 123 123m + 44m.
    h = hand("11122233344m456p")
    groups = {r.groups for r in h.readings()}
    assert len(groups) >= 2
    for r in h.readings():
        assert r.shape is Shape.STANDARD
        assert r.pair is not None and len(r.melds) == 4


def test_readings_with_jokers_place_them() -> None:
    [reading] = [r for r in hand("12m5z456p789s11122z", FIXED).readings()
                 if Group(GroupKind.CHOW, Tile.M1, 1) in r.groups]
    assert reading.wild == 1


def test_no_readings_when_not_complete() -> None:
    assert standard_readings(counts("123m456p789s1112z3z")) == []
    assert hand("123m456p789s1112z3z").readings() == []


# ===========================================================================
# Properties against brute force


@FAST
@given(complete_with_jokers(max_jokers=4))
def test_constructed_complete_hands_are_complete(hand_counts: Counts) -> None:
    c, j = hand_counts
    assert is_complete(c, j)
    assert standard_readings(c, j)


@FAST
@given(complete_with_jokers(max_jokers=4, melds=4, kinds=tuple(NATURAL_KINDS)), MODES)
def test_constructed_hands_win_in_every_mode(hand_counts: Counts, mode: ModeChoice) -> None:
    c, j = hand_counts
    assume(fits_mode(c, j, *mode))
    physical = physical_from(c, j, *mode)
    h = HandAnalysis(physical, wildcards=engine_mode(*mode))
    assert h.jokers == j and h.counts == c
    assert h.is_winning()
    assert h.shanten() == -1


@FAST
@given(st.one_of(complete_with_jokers(max_jokers=2), near_complete(max_jokers=2)))
def test_win_check_matches_brute_force(hand_counts: Counts) -> None:
    c, j = hand_counts
    assert is_complete(c, j) == bf_complete(c, j)


@FAST
@given(st.integers(0, 4).flatmap(lambda m: random_counts(14 - 3 * m, max_jokers=2)))
def test_win_check_random_tiles(hand_counts: Counts) -> None:
    c, j = hand_counts
    assert is_complete(c, j) == bf_complete(c, j)


@SLOW
@given(st.one_of(complete_with_jokers(max_jokers=3, melds=4),
                 near_complete(max_jokers=3, melds=4)))
def test_win_check_three_jokers(hand_counts: Counts) -> None:
    c, j = hand_counts
    assert is_complete(c, j) == bf_complete(c, j)


@FAST
@given(st.one_of(complete_with_jokers(max_jokers=1), near_complete(max_jokers=1)))
def test_all_melds_matches_brute_force(hand_counts: Counts) -> None:
    c, j = hand_counts
    # Take a tile away so the count is a multiple of three (or not: both must agree).
    lst = as_list(c)
    if lst:
        lst.pop()
    c2 = from_list(lst)
    assert is_all_melds(c2, j) == bf_all_melds(c2, j)
    assert is_all_melds(c, j) == bf_all_melds(c, j)


@FAST
@given(st.one_of(complete_with_jokers(max_jokers=1), near_complete(max_jokers=1)))
def test_readings_match_brute_force(hand_counts: Counts) -> None:
    c, j = hand_counts
    found = standard_readings(c, j)
    for r in found:
        assert reading_is_partition(r.groups, c, j), r
        assert sum(1 for g in r.groups if g.kind is GroupKind.PAIR) == 1
    engine = {_key(r.groups) for r in found}
    assert len(engine) == len(found)  # no duplicates
    assert engine == bf_readings(c, j)


@SLOW
@given(complete_with_jokers(max_jokers=2))
def test_readings_two_jokers_match_brute_force(hand_counts: Counts) -> None:
    c, j = hand_counts
    found = standard_readings(c, j)
    assert {_key(r.groups) for r in found} == bf_readings(c, j)


@FAST
@given(complete_with_jokers(max_jokers=4))
def test_readings_are_partitions_with_many_jokers(hand_counts: Counts) -> None:
    c, j = hand_counts
    found = standard_readings(c, j)
    assert found
    for r in found:
        assert reading_is_partition(r.groups, c, j), r


@FAST
@given(st.one_of(random_counts(14, max_jokers=2),
                 complete_with_jokers(max_jokers=2, melds=4),
                 near_complete(max_jokers=2, melds=4)))
def test_seven_pairs_luxury_matches_brute_force(hand_counts: Counts) -> None:
    c, j = hand_counts
    assert seven_pairs_luxury(c, j) == bf_seven_pairs_luxury(c, j)


@st.composite
def pairs_hands(draw: st.DrawFn, max_jokers: int = 2) -> Counts:
    """Seven pairs built constructively (fours allowed), some tiles jokers."""
    c = [0] * NUM_KINDS
    for _ in range(7):
        c[draw(st.sampled_from(EVERY_KIND))] += 2
    assume(max(c) <= 4)
    hand_counts = draw(jokered(c, draw(st.integers(0, max_jokers))))
    if draw(st.booleans()):  # a near miss
        lst = as_list(hand_counts[0])
        lst[draw(st.integers(0, len(lst) - 1))] = draw(st.sampled_from(EVERY_KIND))
        hand_counts = (from_list(lst), hand_counts[1])
    return hand_counts


@FAST
@given(pairs_hands())
def test_seven_pairs_hands_match_brute_force(hand_counts: Counts) -> None:
    c, j = hand_counts
    assert seven_pairs_luxury(c, j) == bf_seven_pairs_luxury(c, j)
    lst = as_list(c)
    if lst:
        lst.pop()
        assert is_six_pairs(from_list(lst), j) == bf_six_pairs(from_list(lst), j)


@FAST
@given(one_short(max_jokers=2, kinds=tuple(NATURAL_KINDS)), MODES,
       st.sampled_from([STANDARD_ONLY, SEVEN]))
def test_waits_match_brute_force(hand_counts: Counts, mode: ModeChoice, shapes: ShapeRules) -> None:
    c, j = hand_counts
    assume(fits_mode(c, j, *mode))
    physical = physical_from(c, j, *mode)
    h = HandAnalysis(physical, wildcards=engine_mode(*mode), shapes=shapes)
    assert h.waits() == bf_waits(physical, bf_mode(*mode), shapes=shapes)


@FAST
@given(one_short(max_jokers=0, melds=4))
def test_waits_without_wildcards_match_brute_force(hand_counts: Counts) -> None:
    c, _ = hand_counts
    physical = tuple(Tile(k) for k in as_list(c))
    h = HandAnalysis(physical)
    assert h.waits() == bf_waits(physical, bf_mode("none"))


@FAST
@given(st.integers(0, 3).flatmap(
    lambda m: st.tuples(one_short(max_jokers=2, melds=4 - m, kinds=tuple(NATURAL_KINDS)),
                        st.just(m))))
def test_waits_with_melds_match_brute_force(args: tuple[Counts, int]) -> None:
    (c, j), m = args
    melds = (pong("777z"), chi("123s"), pong("111p"))[:m]
    physical = physical_from(c, j, "fixed", None)
    h = HandAnalysis(physical, melds, FIXED)
    assert h.waits() == bf_waits(physical, bf_mode("fixed"), melds)
    assert h.is_bao_tou() == bf_bao_tou(physical, bf_mode("fixed"), melds)


HONOUR_KINDS = [k for k in EVERY_KIND if k >= 27 and k != Tile.WHITE]


@FAST
@given(st.integers(0, 2).flatmap(lambda m: st.tuples(st.one_of(
           complete_with_jokers(max_jokers=2, melds=4 - m, kinds=tuple(NATURAL_KINDS)),
           near_complete(max_jokers=2, melds=4 - m, kinds=tuple(NATURAL_KINDS)),
           random_counts(14 - 3 * m, max_jokers=2, kinds=tuple(NATURAL_KINDS)),
           random_counts(14 - 3 * m, max_jokers=1, kinds=tuple(HONOUR_KINDS))), st.just(m))),
       st.one_of(st.just(("none", None)), MODES),
       st.sampled_from([STANDARD_ONLY, SEVEN, JUMBLE]))
def test_discard_waits_match_brute_force_for_every_discard(args: tuple[Counts, int],
                                                           mode: ModeChoice,
                                                           shapes: ShapeRules) -> None:
    """The one-pass waits of every discard of a 14-tile hand (the view's moves) are each
    discard's brute-force waits: with 财神, flip mode's stand-in, seven pairs, the
    honours jumble (without 财神) and melds."""
    (c, j), m = args
    if mode[0] == "none":
        assume(j == 0)
    # The honours jumble is Shanghai's, which has no 财神.
    assume(shapes is not JUMBLE or mode[0] == "none")
    assume(fits_mode(c, j, *mode))
    physical = physical_from(c, j, *mode)
    melds = (pong("777z"), pong("666z"))[:m] if shapes is JUMBLE else \
        (pong("111p"), chi("123s"))[:m]
    found = discard_waits(physical, melds, engine_mode(*mode), shapes)
    assert set(found) == set(physical)
    for tile in set(physical):
        rest = list(physical)
        rest.remove(tile)
        assert found[tile] == bf_waits(tuple(rest), bf_mode(*mode), melds, shapes), tile


def test_discard_waits_of_a_wrongly_sized_hand_are_empty() -> None:
    assert discard_waits(parse_tiles("123m456p789s11z"), (), FIXED, SEVEN) == \
        dict.fromkeys(parse_tiles("123m456p789s11z"), frozenset())


@FAST
@given(one_short(max_jokers=3, melds=4, kinds=tuple(NATURAL_KINDS)),
       st.sampled_from([STANDARD_ONLY, SEVEN]))
def test_bao_tou_matches_brute_force(hand_counts: Counts, shapes: ShapeRules) -> None:
    c, j = hand_counts
    assume(j <= 2 or sum(c) + j == 13)
    physical = physical_from(c, j, "fixed", None)
    h = HandAnalysis(physical, wildcards=FIXED, shapes=shapes)
    bao = h.is_bao_tou()
    if j <= 2:
        assert bao == bf_bao_tou(physical, bf_mode("fixed"), shapes=shapes)
    if bao:  # by definition any tile completes it (that can still arrive)
        assert h.waits() == live(physical, bf_mode("fixed"))
        assert all(h.with_tile(t).is_winning() for t in PLAYING_TILES)


@FAST
@given(st.one_of(complete_with_jokers(max_jokers=2, melds=4),
                 near_complete(max_jokers=2, melds=4),
                 random_counts(14, max_jokers=2)),
       st.sampled_from([STANDARD_ONLY, SEVEN]))
def test_shanten_minus_one_iff_winning(hand_counts: Counts, shapes: ShapeRules) -> None:
    c, j = hand_counts
    h = HandAnalysis(tuple(Tile(k) for k in as_list(c)) + (Tile.WHITE,) * j,
                     wildcards=FIXED if j else NO_WILDCARDS, shapes=shapes)
    assume(h.jokers == j)  # no natural 5z
    assert (h.shanten() == -1) == h.is_winning()
    assert h.shanten() >= -1


@FAST
@given(st.one_of(one_short(max_jokers=2, melds=4), random_counts(13, max_jokers=2)),
       st.sampled_from([STANDARD_ONLY, SEVEN]))
def test_shanten_zero_iff_waiting(hand_counts: Counts, shapes: ShapeRules) -> None:
    """13 tiles: shanten 0 exactly when `waits()` is not empty; waits are the tiles that
    complete the shape, less those that cannot arrive (every copy held)."""
    c, j = hand_counts
    h = HandAnalysis(tuple(Tile(k) for k in as_list(c)) + (Tile.WHITE,) * j,
                     wildcards=FIXED if j else NO_WILDCARDS, shapes=shapes)
    assume(h.jokers == j)
    shape_waits = frozenset(t for t in PLAYING_TILES if h.with_tile(t).is_winning())
    assert h.shanten() >= 0
    assert (h.shanten() == 0) == bool(h.waits())
    mode = bf_mode("fixed" if j else "none")
    assert h.waits() == shape_waits & live(h.concealed, mode)
    if shape_waits and not h.waits():  # dead waits only: one exchange from ready
        assert h.shanten() == 1


@FAST
@given(st.one_of(complete_with_jokers(max_jokers=2, melds=4),
                 near_complete(max_jokers=2, melds=4),
                 random_counts(14, max_jokers=2)),
       st.sampled_from([STANDARD_ONLY, SEVEN]))
def test_shanten_zero_iff_one_discard_from_waiting(hand_counts: Counts, shapes: ShapeRules) -> None:
    c, j = hand_counts
    h = HandAnalysis(tuple(Tile(k) for k in as_list(c)) + (Tile.WHITE,) * j,
                     wildcards=FIXED if j else NO_WILDCARDS, shapes=shapes)
    assume(h.jokers == j)
    ready_after_discard = any(
        HandAnalysis(h.concealed[:i] + h.concealed[i + 1:], wildcards=h.wildcards,
                     shapes=shapes).waits()
        for i in range(len(h.concealed)))
    assert (h.shanten() == 0) == (ready_after_discard and not h.is_winning())


def _exchanges(h: HandAnalysis) -> Iterator[HandAnalysis]:
    """Every 13-tile hand one draw-and-discard away (a drawn 5z is a 财神)."""
    for draw in PLAYING_TILES:
        full = (*h.concealed, draw)
        for idx in sorted({full.index(t) for t in full}):
            yield HandAnalysis(full[:idx] + full[idx + 1:], h.melds, h.wildcards, h.shapes)


@SLOW
@given(st.one_of(one_short(max_jokers=2, melds=4), random_counts(13, max_jokers=2)),
       st.sampled_from([STANDARD_ONLY, SEVEN]))
def test_shanten_is_a_distance(hand_counts: Counts, shapes: ShapeRules) -> None:
    """Shanten k > 0 drops by exactly one with the best exchange, never by more."""
    c, j = hand_counts
    h = HandAnalysis(tuple(Tile(k) for k in as_list(c)) + (Tile.WHITE,) * j,
                     wildcards=FIXED, shapes=shapes)
    assume(h.jokers == j)
    k = h.shanten()
    if k == 0:
        return
    after = [x.shanten() for x in _exchanges(h)]
    assert min(after) == k - 1


@FAST
@given(st.one_of(one_short(max_jokers=0, melds=4), random_counts(13, max_jokers=0)))
def test_shanten_matches_the_mahjong_package(hand_counts: Counts) -> None:
    shanten_mod = pytest.importorskip("mahjong.shanten")
    c, _ = hand_counts
    theirs = shanten_mod.Shanten().calculate_shanten_for_regular_hand(c)
    assert HandAnalysis(tuple(Tile(k) for k in as_list(c))).shanten() == theirs


@FAST
@given(st.integers(0, 3).flatmap(lambda m: random_counts(14 - 3 * m, max_jokers=2)),
       st.booleans())
def test_shanten_minus_each_is_the_shanten_of_each_discard(hand_counts: Counts,
                                                           sequences: bool) -> None:
    c, j = hand_counts
    blocks = 4 - (14 - sum(c) - j) // 3
    held = [k for k in range(NUM_KINDS) if c[k]]
    found = shanten_minus_each(c, j, blocks, held, sequences=sequences)
    for kind in held:
        rest = list(c)
        rest[kind] -= 1
        assert found[kind] == standard_shanten(rest, j, blocks, sequences=sequences), kind


@FAST
@given(st.integers(0, 3).flatmap(lambda m: random_counts(14 - 3 * m, max_jokers=2)),
       st.booleans(), st.sampled_from([(0, 1, 2, 3), (0, 3), (1, 3), (2,), (3,), (2, 0, 1)]))
def test_groups_shanten_is_the_shanten_of_the_groups_kept(hand_counts: Counts, sequences: bool,
                                                          kept: tuple[int, ...]) -> None:
    """The computer player's target shanten, group by group, is `standard_shanten` of the
    counts with every group not kept emptied (singles and all, in any order)."""
    c, j = hand_counts
    blocks = 4 - (14 - sum(c) - j) // 3
    slices = ((0, 9), (9, 18), (18, 27), (27, 34))
    masked = [0] * NUM_KINDS
    groups = []
    for g in kept:
        start, end = slices[g]
        masked[start:end] = c[start:end]
        groups.append((tuple(c[start:end]), g == 3 or not sequences))
    assert groups_shanten(groups, j, blocks) == \
        standard_shanten(masked, j, blocks, sequences=sequences)


@FAST
@given(st.sets(st.tuples(st.integers(0, 4), st.integers(0, 7), st.integers(0, 1)),
               min_size=1, max_size=40))
def test_pareto_keeps_exactly_the_options_nothing_else_equals_or_beats(options: set[tuple[int, int,
                                                                       int]]) -> None:
    """The partial sets' pruning, by (melds, pair) first, is the plain pairwise one."""
    plain = {o for o in options
             if not any(q != o and q[0] >= o[0] and q[1] >= o[1] and q[2] >= o[2]
                        for q in options)}
    assert analysis._pareto(set(options)) == plain


@FAST
@given(st.integers(0, 3).flatmap(lambda m: random_counts(13 - 3 * m, max_jokers=2)),
       st.booleans(), st.booleans())
def test_shanten_plus_each_is_the_shanten_with_each_tile_more(hand_counts: Counts, sequences: bool,
                                                              unsorted: bool) -> None:
    c, j = hand_counts
    blocks = 4 - (13 - sum(c) - j) // 3
    kinds = [k for k in range(NUM_KINDS) if c[k] < 4]
    if unsorted:  # the kinds of one group need not come together
        kinds.reverse()
        kinds = kinds[::2] + kinds[1::2]
    found = shanten_plus_each(c, j, blocks, kinds, sequences=sequences)
    for kind in kinds:
        more = list(c)
        more[kind] += 1
        assert found[kind] == standard_shanten(more, j, blocks, sequences=sequences), kind


@cache
def _partials_lowest_tile_first(key: tuple[int, ...], honors: bool
                                ) -> frozenset[tuple[int, int, int]]:
    """The per-group partial sets as first written: every way to use the lowest tile,
    the rest recursively, the result pruned pairwise (the reference for the split into
    parts no structure spans)."""
    i = next((k for k, n in enumerate(key) if n), -1)
    if i < 0:
        return frozenset({(0, 0, 0)})
    options = set()

    def take(used: tuple[int, ...], dm: int, dt: int, dp: int) -> None:
        rest = list(key)
        for p in used:
            rest[p] -= 1
        for m, t, p in _partials_lowest_tile_first(tuple(rest), honors):
            if dp + p <= 1:
                options.add((m + dm, t + dt, p + dp))

    take((i,), 0, 0, 0)
    if key[i] >= 3:
        take((i, i, i), 1, 0, 0)
    if key[i] >= 2:
        take((i, i), 0, 0, 1)
        take((i, i), 0, 1, 0)
    if not honors:
        n = len(key)
        if i + 2 < n and key[i + 1] and key[i + 2]:
            take((i, i + 1, i + 2), 1, 0, 0)
        if i + 1 < n and key[i + 1]:
            take((i, i + 1), 0, 1, 0)
        if i + 2 < n and key[i + 2]:
            take((i, i + 2), 0, 1, 0)
    return frozenset(o for o in options
                     if not any(q != o and q[0] >= o[0] and q[1] >= o[1] and q[2] >= o[2]
                                for q in options))


def test_partial_sets_match_the_lowest_tile_recursion_on_every_small_shape() -> None:
    """Every suit shape of up to six tiles, every honours shape of up to eight, and
    5,000 random suit shapes of 7 to 14 tiles: split into parts or not, the same sets."""
    shapes = [(key, False) for key in itertools.product(range(5), repeat=9) if sum(key) <= 6]
    shapes += [(key, True) for key in itertools.product(range(5), repeat=7) if sum(key) <= 8]
    rng = random.Random(5)
    for _ in range(5000):
        key = [0] * 9
        for kind in rng.choices(range(9), k=rng.randint(7, 14)):
            key[kind] = min(4, key[kind] + 1)
        shapes.append((tuple(key), False))
    for shape, honors in shapes:
        assert analysis._partials(shape, honors) == _partials_lowest_tile_first(shape, honors), \
            shape
