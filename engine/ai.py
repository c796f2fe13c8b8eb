"""The computer player's judgement: how far a hand is from winning, what to discard,
whether a claim or a kong helps. Pure and deterministic given its random generator.

Shanghai cannot win with a plain hand, so there the distance is measured towards the
patterns that qualify: a flush in one suit (with or without honours), all pungs, or
all honours. Hangzhou measures the standard shape and seven pairs, with the 财神 counted
as wild and always kept (the computer wins whenever it may, so it never floats one).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from operator import mul

from engine import rules, shapes
from engine.analysis import (
    HandAnalysis,
    ShapeRules,
    Wildcards,
    seven_pairs_shanten,
    seven_pairs_shanten_of,
)
from engine.game.actions import Action
from engine.game.legal import legal_actions, remembered_self_draw
from engine.game.state import Discard, HandState, Phase
from engine.melds import Meld, MeldKind
from engine.memo import IdentityMemo, PlainMemo, bounded
from engine.rules.common import ActionKind, ChainStep, make_meld
from engine.shape_tables import (
    EMPTY,
    HONOURS,
    MERGED,
    SUIT_PUNGS,
    SUIT_RUNS,
    TABLE_NUMBERS,
    VALUES,
    merge,
    vector_id,
)
from engine.shapes import POWERS, UNKNOWN
from engine.tiles import NUM_KINDS, Suit, Tile

_SUITS = (Suit.CHARACTERS, Suit.DOTS, Suit.BAMBOO)
_SUIT_RANGE = {Suit.CHARACTERS: range(0, 9), Suit.DOTS: range(9, 18), Suit.BAMBOO: range(18, 27)}


@dataclass(frozen=True)
class Target:
    """What the hand is built towards (Shanghai); ``None`` fields mean no restriction."""

    name: str
    suit: Suit | None = None
    honours: bool = True
    sequences: bool = True
    honours_only: bool = False

    @functools.cached_property
    def plan(self) -> tuple[tuple[int, ...], tuple[bool, ...], bool]:
        """As a pattern target weighs a hand (`_Weighing`): the groups it keeps
        (`_target_groups`), whether it keeps each of the four, and whether it reads them
        as pungs only."""
        groups = _target_groups(self)
        return groups, tuple(g in groups for g in range(4)), not self.sequences


_SHANGHAI_TARGETS = (
    *(Target(f"flush:{s.value}", suit=s) for s in _SUITS),
    Target("all_pungs", sequences=False),
    Target("honours", honours_only=True),
)
_FREE = Target("any")


@dataclass(frozen=True)
class Judge:
    """Judges hands for one rule set and one hand's wildcards."""

    rules: str
    wildcards: Wildcards
    shapes: ShapeRules

    @functools.cached_property
    def aims_for_patterns(self) -> bool:
        """A win needs a qualifying pattern: play toward one of the targets."""
        return rules.get(self.rules).needs_qualifying_pattern

    def split(self, tiles: Sequence[Tile]) -> tuple[list[int], int]:
        return self.wildcards.split(tiles)

    def targets(self, melds: Sequence[Meld]) -> tuple[Target, ...]:
        if not self.aims_for_patterns:
            return (_FREE,)
        if not melds:  # a closed hand may aim anywhere (most hands, most of the time)
            return _SHANGHAI_TARGETS
        return tuple(t for t in _SHANGHAI_TARGETS if _melds_fit(t, melds))

    def shanten(self, tiles: Sequence[Tile], melds: Sequence[Meld],
                target: Target | None = None) -> int:
        """Distance to a winning hand; with a target, to that target only."""
        counts, jokers = self.split(tiles)
        targets = (target,) if target else self.targets(melds)
        return self.counts_shanten(counts, jokers, len(melds), targets)

    def counts_shanten(self, counts: Sequence[int], jokers: int, melds: int,
                       targets: Sequence[Target]) -> int:
        if not self.aims_for_patterns:
            best = _standard_shanten(counts, jokers, 4 - melds)
            if self.shapes.seven_pairs and not melds:
                best = min(best, seven_pairs_shanten(counts, jokers))
            return best
        hand = _HandGroups(counts)
        return min((_target_shanten(t, hand, melds) for t in targets), default=8)

    def best_target(self, tiles: Sequence[Tile], melds: Sequence[Meld]) -> Target:
        counts, _ = self.split(tiles)
        return self.best_target_of(counts, melds)

    def best_target_of(self, counts: Sequence[int], melds: Sequence[Meld]) -> Target:
        """`best_target` of a hand's natural counts: the target the hand is nearest, then
        with the most tiles on it, the first of equals."""
        if not self.aims_for_patterns:
            return _FREE
        return self._best_target_of(_HandGroups(counts), melds)

    def _best_target_of(self, hand: _HandGroups, melds: Sequence[Meld]) -> Target:
        """`best_target_of` a hand given by its `_HandGroups` (a pattern rule set)."""
        fitting = _fitting_targets(melds) if melds else _ALL_TARGETS
        return _best_target(fitting, hand, len(melds))


_ALL_TARGETS = (1 << len(_SHANGHAI_TARGETS)) - 1
_FITTING = IdentityMemo[int]("engine.ai.fitting_targets", maxsize=1 << 10)


def _fitting_targets(melds: Sequence[Meld]) -> int:
    """The targets the melds fit (`_melds_fit`), as a bit per `_SHANGHAI_TARGETS` entry;
    worked out once a seat's melds (a seat's melds are one tuple until it melds again)."""
    def fitting() -> int:
        return sum(1 << i for i, t in enumerate(_SHANGHAI_TARGETS) if _melds_fit(t, melds))
    # Only a tuple is known not to change while remembered.
    return _FITTING.get(melds, None, fitting) if isinstance(melds, tuple) else fitting()


def _best_target(fitting: int, hand: _HandGroups, melds: int) -> Target:
    """`Judge.best_target_of` of a hand given by its `_HandGroups`, among the targets in
    ``fitting`` (none: no restriction): the nearest, then the one with the most tiles on
    it (`_on_target`), the first of equals. Each target's shanten is read inline (a flush
    keeps its suit and the honours: one merge of two vector numbers; all pungs merges the
    four groups read as pungs; all honours counts the honours), and the measure is one
    int (`_TARGET_ORDER`), the same order as (shanten, -tiles on it)."""
    sizes, blocks = hand.sizes, 4 - melds
    short, top = 3 * blocks + 2, 2 * blocks + 1  # `shapes.needed`'s two bounds, inline
    best, best_measure = _FREE, _NO_MEASURE
    if fitting & 7:
        runs = hand.runs
        honours, held = runs[3], sizes[3]
        for g in (0, 1, 2):
            if not fitting >> g & 1:
                continue
            number = runs[g]
            merged = MERGED.get(number << 16 | honours)
            if merged is None:
                merged = merge(number, honours)
            on = sizes[g] + held
            needed = max(short - on, top - VALUES[merged][blocks])
            measure = (needed if needed > 0 else 0) * _TARGET_ORDER - on
            if measure < best_measure:
                best, best_measure = _FLUSHES[g], measure
    if fitting & 8:
        on = sizes[0] + sizes[1] + sizes[2] + sizes[3]
        needed = max(short - on, top - VALUES[_merged(hand.ids(True))][blocks])
        measure = (needed if needed > 0 else 0) * _TARGET_ORDER - on
        if measure < best_measure:
            best, best_measure = _ALL_PUNGS, measure
    if fitting & 16:  # all honours: only the honours count
        on = sizes[3]
        needed = 14 - 3 * melds - on
        measure = (needed if needed > 0 else 0) * _TARGET_ORDER - on
        if measure < best_measure:
            best = _ALL_HONOURS
    return best


_TARGET_ORDER = 64
"""Above any count of tiles on a target: ``needed * _TARGET_ORDER - on`` orders targets as
(shanten, -on) does (a shanten is ``needed - 1``, at least -1: ``needed`` at least 0)."""
_NO_MEASURE = 99 * _TARGET_ORDER
_FLUSHES = _SHANGHAI_TARGETS[0:3]
_ALL_PUNGS, _ALL_HONOURS = _SHANGHAI_TARGETS[3:5]


def _melds_fit(target: Target, melds: Sequence[Meld]) -> bool:
    for meld in melds:
        face = meld.face
        if target.honours_only and not face.is_honor:
            return False
        if target.suit is not None and face.is_suited and face.suit is not target.suit:
            return False
        if not target.sequences and not meld.is_pung_like:
            return False
    return True


def _keep(target: Target, kind: int) -> bool:
    if target.honours_only:
        return kind >= 27
    if target.suit is not None:
        return kind in _SUIT_RANGE[target.suit] or (target.honours and kind >= 27)
    return True


@bounded(maxsize=16)
def _mask(target: Target) -> tuple[bool, ...]:
    return tuple(_keep(target, k) for k in range(NUM_KINDS))


def _on_target(target: Target, counts: Sequence[int]) -> int:
    """The tiles the target keeps (`_keep`), counted by whole suits."""
    if target.honours_only:
        return sum(counts[27:34])
    if target.suit is None:
        return sum(counts)
    kinds = _SUIT_RANGE[target.suit]
    return sum(counts[kinds.start:kinds.stop]) + (sum(counts[27:34]) if target.honours else 0)


_SUIT_GROUP = {suit: i for i, suit in enumerate(_SUITS)}

_SPANS = ((0, 9), (9, 18), (18, 27), (27, 34))
_ALL_GROUPS = (0, 1, 2, 3)
_TABLES = {False: (SUIT_RUNS, SUIT_RUNS, SUIT_RUNS, HONOURS),
           True: (SUIT_PUNGS, SUIT_PUNGS, SUIT_PUNGS, HONOURS)}
"""By whether only pungs count: each group's table of vector numbers (`engine.shapes`)."""


def _vector_ids(counts: Sequence[int], codes: Sequence[int], exact: bool, pungs: bool
                ) -> tuple[int, ...]:
    """Each group's vector number (`engine.shapes`) by its code: read with chows unless
    ``pungs`` (the honours never make chows); worked out live when the codes are not
    ``exact`` (a count above four) or the table holds no such group."""
    tables = _TABLES[pungs]
    out = []
    for g in range(4):
        number = tables[g][codes[g]] if exact else UNKNOWN
        if number == UNKNOWN:
            start, end = _SPANS[g]
            number = vector_id(tables[g], tuple(counts[start:end]), pungs or g == 3)
        out.append(number)
    return tuple(out)


class _HandGroups:
    """A hand's natural counts as the computer player reads them: each group's code
    (`engine.shapes`) and tiles, and its vector number with chows and with pungs only
    (asked for when first needed)."""

    __slots__ = ("_pungs", "codes", "counts", "exact", "runs", "sizes")

    def __init__(self, counts: Sequence[int]) -> None:
        self.counts = counts
        self.codes = (sum(map(mul, counts[0:9], POWERS)), sum(map(mul, counts[9:18], POWERS)),
                      sum(map(mul, counts[18:27], POWERS)),
                      sum(map(mul, counts[27:34], POWERS)))
        self.sizes = (sum(counts[0:9]), sum(counts[9:18]), sum(counts[18:27]),
                      sum(counts[27:34]))
        self.exact = max(counts) <= 4  # else a code would not tell its counts apart
        self.runs = self._read(SUIT_RUNS, False)
        self._pungs: tuple[int, ...] | None = None

    def ids(self, pungs: bool) -> tuple[int, ...]:
        if not pungs:
            return self.runs
        if self._pungs is None:
            self._pungs = self._read(SUIT_PUNGS, True)
        return self._pungs

    def _read(self, suits: bytes, pungs: bool) -> tuple[int, ...]:
        """Each group's vector number read from ``suits`` (and `HONOURS`) by its code;
        `_vector_ids` when a code is not exact or the table does not hold it."""
        if self.exact:
            codes = self.codes
            ids = (suits[codes[0]], suits[codes[1]], suits[codes[2]], HONOURS[codes[3]])
            if UNKNOWN not in ids:
                return ids
        return _vector_ids(self.counts, self.codes, self.exact, pungs)


def _tiles_on(target: Target, sizes: Sequence[int]) -> int:
    """`_on_target` of a hand given by its groups' tile counts."""
    if target.honours_only:
        return sizes[3]
    if target.suit is None:
        return sizes[0] + sizes[1] + sizes[2] + sizes[3]
    g = _SUIT_GROUP[target.suit]
    return sizes[g] + (sizes[3] if target.honours else 0)


def _merged(ids: Iterable[int]) -> int:
    """The vector number of groups given by their vector numbers, merged (`MERGED` read
    inline: every pair of the file's vectors is in it)."""
    merged = EMPTY
    for number in ids:
        known = MERGED.get(merged << 16 | number)
        merged = merge(merged, number) if known is None else known
    return merged


_RESTS: PlainMemo[tuple[int, int, int, int, tuple[int, ...]], tuple[int, ...]] = PlainMemo(
    "engine.ai.rests", 1 << 14)
"""`_Weighing._rests_all`'s memo, by the four groups' vector numbers and the groups
weighed; `bench/choice.py` prints its size."""


def _rests_of(ids: Sequence[int], groups: tuple[int, ...]) -> tuple[int, ...]:
    """`_Weighing._rests_all` worked out: the ``groups``' vector numbers ``ids`` merged
    but one group, then all, then but each two. Each set of groups is merged once, from
    a set one group smaller (a merge is a max-plus convolution: the order groups are
    merged in does not change the vector, `tests/engine/test_ai_weighing.py`)."""
    kept = 0
    for g in groups:
        kept |= 1 << g
    merged = [EMPTY] * 16  # by a mask of groups, those groups merged
    for mask in range(1, 16):
        if mask & ~kept:
            continue  # a group not weighed counts as empty: never asked for
        low = mask & -mask
        before, number = merged[mask ^ low], ids[_LOWEST_GROUP[low]]
        known = MERGED.get(before << 16 | number)
        merged[mask] = merge(before, number) if known is None else known
    but_one = [merged[kept & ~(1 << g)] for g in range(4)]
    but_two = [merged[kept & ~(1 << g) & ~(1 << gone)] for g in range(4) for gone in range(4)]
    return (*but_one, merged[kept], *but_two)


_LOWEST_GROUP = {1 << g: g for g in range(4)}
"""A mask's lowest group, by the mask's lowest bit."""


def _merged_value(ids: Iterable[int], blocks: int) -> int:
    """The merged value (`engine.shapes`) of groups given by their vector numbers."""
    return VALUES[_merged(ids)][blocks]


def _target_shanten(target: Target, hand: _HandGroups, melds: int) -> int:
    """The shanten toward ``target`` of a hand given by its `_HandGroups` (made once for
    all targets): `standard_shanten` of the counts the target keeps, a group not kept
    holding nothing."""
    sizes = hand.sizes
    if target.honours_only:
        # Honours jumble (乱风向): any honours at all, so only the non-honours count.
        concealed = 14 - 3 * melds
        return max(-1, concealed - sizes[3] - 1)
    groups, _, pungs = target.plan
    ids, merged, natural = hand.ids(pungs), EMPTY, 0
    for g in groups:  # `_merged` and the tiles on the target, inline
        number = ids[g]
        known = MERGED.get(merged << 16 | number)
        merged = merge(merged, number) if known is None else known
        natural += sizes[g]
    blocks = 4 - melds
    return max(-1, shapes.needed(VALUES[merged][blocks], natural, blocks) - 1)


def _standard_shanten(counts: Sequence[int], jokers: int, blocks: int) -> int:
    """`engine.analysis.standard_shanten` by the per-group tables (`engine.shapes`)."""
    value = _merged_value(_HandGroups(counts).runs, blocks)
    return max(-1, shapes.needed(value, sum(counts), blocks) - jokers - 1)


# ---------------------------------------------------------------------------
# Decisions


USEFUL_CANDIDATES = 4


def choose_discard(judge: Judge, tiles: Sequence[Tile], melds: Sequence[Meld],
                   unseen: Sequence[int] | None, rng: random.Random,
                   allowed: Sequence[Tile] | None = None) -> Tile:
    """The discard that leaves the hand nearest a win, then with the most tiles that
    would bring it nearer (``unseen``: copies of each kind not yet in sight)."""
    candidates = tuple(sorted(set(allowed if allowed is not None else tiles)))
    if len(candidates) == 1:
        return candidates[0]
    # The judgement is memoised (the player's view suggests the very discard the
    # computer then makes); only the final draw among equals uses ``rng``.
    return rng.choice(_best_discards(judge, tuple(sorted(tiles)), tuple(melds),
                                     None if unseen is None else tuple(unseen), candidates))


@bounded(maxsize=256)
def _best_discards(judge: Judge, tiles: tuple[Tile, ...], melds: tuple[Meld, ...],
                   unseen: tuple[int, ...] | None, candidates: tuple[Tile, ...]
                   ) -> tuple[Tile, ...]:
    """The discards `choose_discard` draws from: all equally good by its measures."""
    counts, jokers = judge.split(tiles)
    hand = _HandGroups(counts)
    target = judge._best_target_of(hand, melds) if judge.aims_for_patterns else _FREE
    weighing = _Weighing(judge, counts, jokers, len(melds), target, hand)
    # Keep the 财神: it completes anything.
    kinds = _kinds_of(judge.wildcards, candidates)
    if not kinds:
        return candidates
    after = weighing.shanten_without(kinds.values())
    best = min(after.values())
    tied = [t for t, kind in kinds.items() if after[kind] == best]
    if len(tied) > 1 and judge.wildcards.joker is not None:
        tied = _keep_wildcards_free(weighing, kinds, tied)
    wild = judge.wildcards
    # Without 财神 or stand-ins the natural counts are the physical ones.
    physical = counts if wild.joker is None and not wild.stand_in else _physical_counts(tiles)
    loneliness = {t: (_isolation_in(physical, t), _CENTRAL[t]) for t in tied}
    if len(tied) > 1:
        # Counting useful tiles is the costly part: do it for the few loneliest only.
        tied.sort(key=loneliness.__getitem__, reverse=True)
        tied = tied[:USEFUL_CANDIDATES]
        useful = {t: weighing.useful_without(kinds[t], best, unseen) for t in tied}
        most = max(useful.values())
        tied = [t for t in tied if useful[t] == most]
    tied.sort(key=loneliness.__getitem__, reverse=True)
    return tuple(t for t in tied if loneliness[t] == loneliness[tied[0]])


def _kinds_of(wildcards: Wildcards, tiles: Sequence[Tile]) -> dict[Tile, int]:
    """The natural kind each tile plays as, the 财神 left out."""
    if wildcards.joker is None and not wildcards.stand_in:
        return {t: t for t in tiles}  # every tile plays as itself (Shanghai)
    plays = wildcards.plays_as
    return {t: kind for t in tiles if (kind := plays(t)) is not None}


def _shanten_without_each(judge: Judge, tiles: Sequence[Tile], melds: Sequence[Meld],
                          target: Target, discards: Sequence[Tile]) -> dict[Tile, int]:
    """`Judge.shanten` towards ``target`` of the hand left by each of ``discards`` (held,
    none a 财神): the hand's groups merged once, each discard changing its own group."""
    counts, jokers = judge.split(tiles)
    weighing = _Weighing(judge, counts, jokers, len(melds), target)
    kinds = _kinds_of(judge.wildcards, discards)
    after = weighing.shanten_without(kinds.values())
    return {tile: after[kind] for tile, kind in kinds.items()}


def _keep_wildcards_free(weighing: _Weighing, kinds: dict[Tile, int], tied: list[Tile]
                         ) -> list[Tile]:
    """Among equal discards, keep the one whose natural tiles are nearest four melds on
    their own: a 财神 left free makes the hand 暴头 (worth double) instead of filling a gap."""
    scores = {t: weighing.natural_shanten_without(kinds[t]) for t in tied}
    low = min(scores.values())
    return [t for t in tied if scores[t] == low]


def burst_head_discard(judge: Judge, tiles: Sequence[Tile], melds: Sequence[Meld],
                       floats: int, piao_counts: bool = True) -> tuple[Tile, int] | None:
    """The discard that leaves a 暴头 hand (any next draw wins), with the multiplier that
    win would have: ×2, doubled again for each 财神 floated in a row (财飘) — a 财神
    discard extends the chain, any other discard ends it. ``piao_counts`` is False in
    a turn that began with a chi or pong: a 财神 floated then is no link (Hangzhou)."""
    best: tuple[Tile, int] | None = None
    for tile in sorted(set(tiles), key=lambda t: not judge.wildcards.is_joker(t)):
        rest = _without(tiles, tile)
        if not HandAnalysis(tuple(rest), tuple(melds), judge.wildcards,
                            judge.shapes).is_bao_tou():
            continue
        piao = floats + 1 if piao_counts and judge.wildcards.is_joker(tile) else 0
        value = 2 ** (1 + min(piao, MAX_FLOATS))
        if best is None or value > best[1]:
            best = (tile, value)
    return best


def _without(tiles: Sequence[Tile], tile: Tile) -> list[Tile]:
    rest = list(tiles)
    rest.remove(tile)
    return rest


def _useful_each(judge: Judge, tiles: Sequence[Tile], melds: Sequence[Meld], target: Target,
                 now: int, unseen: Sequence[int] | None, discards: Sequence[Tile]
                 ) -> dict[Tile, int]:
    """How many unseen tiles would lower the shanten (受入) of the hand each of
    ``discards`` (held, none a 财神) leaves, toward ``target`` (``now``: that shanten,
    ``unseen``: copies of each kind not yet in sight; None: all not held)."""
    counts, jokers = judge.split(tiles)
    weighing = _Weighing(judge, counts, jokers, len(melds), target)
    kinds = _kinds_of(judge.wildcards, discards)
    assert len(kinds) == len(discards), "a 财神 is never weighed as a discard"
    return {tile: weighing.useful_without(kind, now, unseen) for tile, kind in kinds.items()}


class _Weighing:
    """One hand (natural counts and jokers) weighed toward one target, group by group.

    A tile connects only within its suit, so the shanten after a discard, and the kinds
    that would lower it after that, are found one group at a time: each group is a code
    (`engine.shapes`) whose vector number is one index into a table, a discard or a
    draw moves the code by a power of five, and the other groups' vectors are merged
    once. The same answers as asking kind by kind: `tests/engine/test_ai_judgement.py`
    and `tests/engine/test_ai_weighing.py` hold the plain references."""

    def __init__(self, judge: Judge, counts: list[int], jokers: int, melds: int,
                 target: Target, hand: _HandGroups | None = None) -> None:
        self.judge, self.target, self.counts, self.jokers = judge, target, counts, jokers
        self.melds, self.blocks = melds, 4 - melds
        self.towards_honours = judge.aims_for_patterns and target.honours_only
        if judge.aims_for_patterns:
            # A pattern target reads only the groups it keeps: a tile off it
            # never helps, and the groups off it count as empty.
            self.spare, self.seven = 1, False
            self.groups, self.weighed, pungs = target.plan
        else:
            self.spare, pungs = jokers + 1, False
            self.seven = judge.shapes.seven_pairs and not melds
            self.groups, self.weighed = _ALL_GROUPS, (True, True, True, True)
        self.pungs = pungs
        self.tables = _TABLES[pungs]
        if hand is None:  # ``hand`` is of these very counts
            hand = _HandGroups(counts)
        self.exact = hand.exact
        self.codes = hand.codes  # read only (`_useful_count` changes a copy)
        ids, sizes, weighed = hand.ids(pungs), hand.sizes, self.weighed
        self.ids = [ids[g] if weighed[g] else EMPTY for g in (0, 1, 2, 3)]
        natural = 0
        for g in self.groups:
            natural += sizes[g]
        self.natural = natural
        if self.seven:  # the hand's pairs and odd tiles, for seven pairs
            self.pairs = sum(n >> 1 for n in counts)
            self.singles = sum(n & 1 for n in counts)
        self._rests: tuple[int, ...] | None = None
        self._needed: dict[int, int] = {}
        self._useful: dict[int, int] = {}
        self._unseen: Sequence[int] | None = None
        self._by_group: dict[tuple[int, int, tuple[int, int] | None, int], int] = {}

    def _rest(self, g: int) -> int:
        """The vector number of the hand's groups other than ``g`` (-1: all), merged."""
        return self._rests_all()[4 if g < 0 else g]

    def _rests_all(self) -> tuple[int, ...]:
        """`_rest` of each group, then of none (-1: all groups), then `_rest_but` of each
        two groups (at ``5 + 4 * g + gone``): remembered by the groups' vector numbers
        (`_RESTS`), which recur from one turn to the next."""
        rests = self._rests
        if rests is None:
            ids, groups = self.ids, self.groups
            key = (ids[0], ids[1], ids[2], ids[3], groups)
            rests = _RESTS.get(key)
            if rests is None:
                rests = _RESTS.keep(key, _rests_of(ids, groups))
            self._rests = rests
        return rests

    def _rest_but(self, g: int, gone: int) -> int:
        """The vector number of the hand's groups other than ``g`` and ``gone``, merged."""
        return self._rests_all()[5 + 4 * g + gone]

    def _group_id(self, g: int, code: int, key: Sequence[int]) -> int:
        """Group ``g``'s vector number for ``code``, its counts ``key``."""
        number = self.tables[g][code] if self.exact and max(key) <= 4 else UNKNOWN
        if number == UNKNOWN:
            number = vector_id(self.tables[g], tuple(key), self.pungs or g == 3)
        return number

    def _needed_without(self, kind: int) -> int:
        """`_fewest_needed` of the weighed hand with one tile of ``kind`` (held) fewer."""
        needed = self._needed.get(kind)
        if needed is None:
            g = _GROUP_OF_KIND[kind]
            start, end = _SPANS[g]
            place = kind - start
            if self.exact:
                number = self.tables[g][self.codes[g] - POWERS[place]]
            else:
                key = self.counts[start:end]
                key[place] -= 1
                number = self._group_id(g, -1, key)
            rest = self._rest(g)
            merged = MERGED.get(rest << 16 | number)
            if merged is None:
                merged = merge(rest, number)
            blocks = self.blocks
            needed = self._needed[kind] = shapes.needed(VALUES[merged][blocks],
                                                        self.natural - 1, blocks)
        return needed

    def shanten_without(self, kinds: Iterable[int]) -> dict[int, int]:
        """`Judge.shanten` towards the target of the hand left by a tile of each of
        ``kinds`` (each held) gone."""
        out: dict[int, int] = {}
        if self.towards_honours:
            honours = sum(self.counts[27:34])
            concealed = 14 - 3 * self.melds
            for kind in kinds:  # only the honours count (`_target_shanten`)
                out[kind] = max(-1, concealed - (honours - (kind >= 27)) - 1)
            return out
        pairs = None
        if self.seven:  # one tile fewer of a kind held an odd, or an even number of times
            held, odd, jokers = self.pairs, self.singles, self.jokers
            pairs = (seven_pairs_shanten_of(held, odd - 1, jokers),
                     seven_pairs_shanten_of(held - 1, odd + 1, jokers))
        counts, spare, weighed = self.counts, self.spare, self.weighed
        tables, codes, rests, blocks = self.tables, self.codes, self._rests_all(), self.blocks
        # With a 财神 the equal discards are told apart by `_needed_without`: keep it.
        needed_of = self._needed if self.judge.wildcards.joker is not None else None
        # `shapes.needed` of the hand a tile fewer: short by its count, or by its value.
        short, top = 3 * blocks + 2 - (self.natural - 1), 2 * blocks + 1
        unchanged: int | None = None
        for kind in kinds:
            if not weighed[_GROUP_OF_KIND[kind]]:  # off a pattern target: as it is
                if unchanged is None:
                    unchanged = max(-1, shapes.needed(VALUES[self._rest(-1)][self.blocks],
                                                      self.natural, self.blocks) - spare)
                out[kind] = unchanged
                continue
            g = _GROUP_OF_KIND[kind]
            if self.exact:  # `_needed_without`, inline: one look-up a kind
                rest = rests[g]
                number = tables[g][codes[g] - _POWER_OF_KIND[kind]]
                merged = MERGED.get(rest << 16 | number)
                if merged is None:
                    merged = merge(rest, number)
                by_value = top - VALUES[merged][blocks]
                needed = short if short > by_value else by_value
                if needed_of is not None:
                    needed_of[kind] = needed
                after = needed - spare
            else:
                after = self._needed_without(kind) - spare
            if after < -1:
                after = -1
            if pairs is not None:
                after = min(after, pairs[counts[kind] & 1 ^ 1])
            out[kind] = after
        return out

    def natural_shanten_without(self, kind: int) -> int:
        """The standard shanten of the natural tiles alone (no 财神, no seven pairs) left
        by a tile of ``kind`` gone (Hangzhou: the hand weighed is every natural tile)."""
        assert not self.judge.aims_for_patterns, "every natural tile is weighed"
        return max(-1, self._needed_without(kind) - 1)

    def useful_without(self, kind: int, now: int, unseen: Sequence[int] | None) -> int:
        """`_useful_each` of the hand a tile of ``kind`` (held) leaves, whose shanten
        is ``now``."""
        if now < 0:
            return 0  # nothing is nearer than a complete hand
        # A discard off a pattern target leaves the hand weighed as it is.
        known = kind if self.weighed[_GROUP_OF_KIND[kind]] else -1
        useful = self._useful.get(known)
        if useful is None:
            self.counts[kind] -= 1
            if self.towards_honours:
                useful = _useful_towards_honours(self.judge, self.counts, self.melds,
                                                 self.target, now, unseen)
            else:
                useful = self._useful_count(kind if known >= 0 else None, now, unseen)
            self.counts[kind] += 1
            self._useful[known] = useful
        return useful

    def _useful_count(self, kind: int | None, now: int, unseen: Sequence[int] | None) -> int:
        """The useful tiles once one tile of ``kind`` (None: a kind not weighed) is gone;
        ``self.counts`` already without it: each kind near a group's tiles
        (`_plus_numbers`) that, one more of it, leaves the hand nearer."""
        counts, blocks, spare = self.counts, self.blocks, self.spare
        codes, natural, gone, changed = self.codes, self.natural, -1, EMPTY
        if kind is not None:
            gone = _GROUP_OF_KIND[kind]
            start, end = _SPANS[gone]
            code = codes[gone] - POWERS[kind - start]  # the group ``kind`` left
            changed = self.tables[gone][code] if self.exact else UNKNOWN
            if changed == UNKNOWN:
                changed = self._group_id(gone, code, counts[start:end])
            natural -= 1
        pairs = self._seven_pairs_plus_one(kind) if self.seven else None
        if pairs is not None and min(pairs) >= now:
            pairs = None  # seven pairs lowers no shanten with one tile: only the standard can
        below = now + spare
        if pairs is None and 3 * blocks + 2 - (natural + 1) >= below:
            return 0  # too few tiles: one more leaves the hand as far by its count alone
        if unseen is not self._unseen:  # the counts by group below are for one unseen
            self._unseen, self._by_group = unseen, {}
        useful, rests, by_group = 0, self._rests_all(), self._by_group
        for g in self.groups:
            if g == gone:  # the other groups as they were (`_rest`)
                useful += self._group_useful(g, rests[g], code, natural, pairs, now, unseen)
                continue
            if gone < 0:
                rest = rests[g]
            else:  # the others but ``gone`` (`_rest_but`), with ``gone`` as it is now
                but = rests[5 + 4 * g + gone]
                merged = MERGED.get(but << 16 | changed)
                rest = merge(but, changed) if merged is None else merged
            # The group as it was: its count may be known already.
            key = (g, rest, pairs, now)
            known = by_group.get(key)
            if known is None:
                known = by_group[key] = self._group_useful(g, rest, codes[g], natural, pairs,
                                                           now, unseen)
            useful += known
        return useful

    def _group_useful(self, g: int, rest: int, code: int, natural: int,
                      pairs: tuple[int, int] | None, now: int, unseen: Sequence[int] | None
                      ) -> int:
        """`_useful_count`'s tiles of group ``g`` (its code ``code``; ``rest``: the other
        groups merged; ``natural``: the tiles weighed, without the one more)."""
        if self.exact:  # the kinds to ask about and their numbers, by the group's code
            places = _plus_numbers(code << 2 | (g == 3) << 1 | self.pungs)
        else:
            places = self._plus_numbers_of(g)
        if pairs is not None:
            return self._useful_with_pairs(rest, places, _SPANS[g][0], natural + 1, pairs,
                                           now, unseen)
        blocks, below = self.blocks, now + self.spare
        helps = _HELPING.get((rest, blocks, below)) or _helping(rest, blocks, below)
        known, start = len(helps), _SPANS[g][0]
        useful = 0
        for place, held, number in places:
            if helps[number] if number < known else _value_helps(rest, number, blocks, below):
                copies = 4 - held if unseen is None else unseen[start + place]
                if copies > 0:
                    useful += copies
        return useful

    def _plus_numbers_of(self, g: int) -> _Plus:
        """`_plus_numbers` of group ``g`` when the hand's codes are not exact (a count
        above four): read from its counts, a code table only where its code is (as the
        codes of `_useful_count` are kept)."""
        counts, table = self.counts, self.tables[g]
        start, end = _SPANS[g]
        out = []
        for place, held, more in _plus_places_of(counts[start:end], g == 3):
            number = table[more] if more >= 0 else UNKNOWN
            if number == UNKNOWN:  # a count of five, or a group no table holds
                number = self._plus_one(g, counts, place)
            out.append((place, held, number))
        return tuple(out)

    def _plus_one(self, g: int, counts: Sequence[int], place: int) -> int:
        """Group ``g``'s vector number with one more of its ``place``-th kind."""
        start, end = _SPANS[g]
        more = list(counts[start:end])
        more[place] += 1
        return vector_id(self.tables[g], tuple(more), self.pungs or g == 3)

    def _useful_with_pairs(self, rest: int, places: _Plus, start: int, natural: int,
                           pairs: tuple[int, int], now: int, unseen: Sequence[int] | None
                           ) -> int:
        """`_useful_count`'s tiles of a group (``places``: its `_plus_numbers`) when seven
        pairs may also come nearer (``start``: its first kind; ``pairs``:
        `_seven_pairs_plus_one`; ``natural``: the tiles with the one more)."""
        blocks, spare = self.blocks, self.spare
        short, top = 3 * blocks + 2 - natural, 2 * blocks + 1  # `shapes.needed`, inline
        useful = 0
        for place, held, number in places:
            merged = MERGED.get(rest << 16 | number)
            if merged is None:
                merged = merge(rest, number)
            by_value = top - VALUES[merged][blocks]
            needed = short if short > by_value else by_value
            if min(max(-1, needed - spare), pairs[held & 1 ^ 1]) < now:
                copies = 4 - held if unseen is None else unseen[start + place]
                if copies > 0:
                    useful += copies
        return useful

    def _seven_pairs_plus_one(self, gone: int | None) -> tuple[int, int]:
        """The seven pairs shanten once a tile of ``gone`` is gone and one more tile comes:
        of a kind then held an odd number of times, or of any other."""
        held, odd = self.pairs, self.singles
        if gone is not None:
            if self.counts[gone] & 1:  # ``self.counts`` is already without it: now even
                held, odd = held - 1, odd + 1
            else:
                odd -= 1
        return (seven_pairs_shanten_of(held + 1, odd - 1, self.jokers),
                seven_pairs_shanten_of(held, odd + 1, self.jokers))


_PLACES_OF = tuple(tuple(p for p in range(9) if mask >> p & 1) for mask in range(1 << 9))
"""The places set in a mask of a group's nine (or seven) kinds."""
_Places = tuple[tuple[int, int, int], ...]
"""A group's kinds to ask about: each one's place, copies held, and the group's code with
one more of it (-1 when that code would be wrong: four held)."""


_Plus = tuple[tuple[int, int, int], ...]
"""A group's kinds to ask about (`_plus_places_of`): each one's place, copies held, and the
group's vector number with one more of it."""


@bounded(maxsize=1 << 14)
def _plus_numbers(key: int) -> _Plus:
    """`_Plus` of a group given by ``code << 2 | honours << 1 | pungs`` (its code exact;
    read with pungs only when ``pungs``): one int is a cheap key, a group's code recurs
    from one decision to the next (the three suits share one entry), and each kind's
    number is then read once, not a table look-up per kind per decision."""
    code, honours, pungs = key >> 2, bool(key & 2), bool(key & 1)
    table = _TABLES[pungs][3 if honours else 0]
    digits = [code // power % 5 for power in POWERS[:7 if honours else 9]]
    out = []
    for place, held, more in _plus_places_of(digits, honours):
        number = table[more] if more >= 0 else UNKNOWN
        if number == UNKNOWN:  # a count of five, or a group no table holds
            digits[place] += 1
            number = vector_id(table, tuple(digits), pungs or honours)
            digits[place] -= 1
        out.append((place, held, number))
    return tuple(out)


def _plus_places_of(key: Sequence[int], honours: bool) -> _Places:
    """The places in a group of the kinds held or, in a suit, one or two ranks from one
    held (the kinds the computer player asks about), with the copies held and the code
    one more of the kind makes."""
    held = 0
    for place, n in enumerate(key):
        if n:
            held |= 1 << place
    near = held if honours else (held | held << 1 | held << 2 | held >> 1 | held >> 2) & 0x1FF
    code = shapes.code_of(key)
    return tuple((place, key[place], code + POWERS[place] if key[place] < 4 else -1)
                 for place in _PLACES_OF[near])


_HELPING: PlainMemo[tuple[int, int, int], tuple[bool, ...]] = PlainMemo(
    "engine.ai.helping", 1 << 14)
"""`_helping`'s memo: its keys are few (a merged vector of the 82 in the file, 1 to 4
blocks, a shanten plus the 财神: a few thousand at most; about 400 after 100 hands of
each rule set), `bench/choice.py` prints its size."""


def _helping(rest: int, blocks: int, below: int) -> tuple[bool, ...]:
    """By a group's vector number (the tables' own), whether that group with the other
    groups' merged ``rest`` leaves the hand needing fewer than ``below`` tiles (its count
    alone being no shorter, as `_useful_count` has checked)."""
    key = (rest, blocks, below)
    known = _HELPING.get(key)
    if known is None:
        known = _HELPING.keep(key, tuple(_value_helps(rest, number, blocks, below)
                                         for number in range(TABLE_NUMBERS)))
    return known


def _value_helps(rest: int, number: int, blocks: int, below: int) -> bool:
    # `shapes.needed` below ``below`` by the value (the count was checked already).
    merged = MERGED.get(rest << 16 | number)
    if merged is None:
        merged = merge(rest, number)
    return 2 * blocks + 1 - VALUES[merged][blocks] < below




_GROUP_OF_KIND = tuple(min(kind // 9, 3) for kind in range(NUM_KINDS))
_POWER_OF_KIND = tuple(POWERS[kind - _SPANS[_GROUP_OF_KIND[kind]][0]] for kind in range(NUM_KINDS))
"""A kind's place in its group's code (`engine.shapes`)."""


def _target_groups(target: Target) -> tuple[int, ...]:
    """The groups a pattern target keeps (`_keep`), by index in `_SPANS`."""
    if target.suit is None:
        return (0, 1, 2, 3)
    suit = _SUIT_GROUP[target.suit]
    return (suit, 3) if target.honours else (suit,)


def _useful_towards_honours(judge: Judge, counts: list[int], melds: int, target: Target,
                            now: int, unseen: Sequence[int] | None) -> int:
    """`_useful_each` of one hand toward all honours (``counts`` is left as it was)."""
    keep = _mask(target)
    left = {kind: 4 - counts[kind] if unseen is None else unseen[kind]
            for kind in _near(counts) if keep[kind]}  # a tile off the target never helps
    useful = 0
    for kind, copies in left.items():
        if copies <= 0:
            continue
        counts[kind] += 1
        if judge.counts_shanten(counts, 0, melds, (target,)) < now:
            useful += copies
        counts[kind] -= 1
    return useful


def _near(counts: Sequence[int]) -> list[int]:
    """Kinds that could connect with the hand: held ones and suit neighbours (±2)."""
    near: set[int] = set()
    for kind, n in enumerate(counts):
        if n:
            near.update(_NEIGHBOURS[kind])
    return sorted(near)


def _neighbours(kind: int) -> tuple[int, ...]:
    """A kind and, in a suit, the kinds one or two ranks from it."""
    if kind >= 27:
        return (kind,)
    base = kind - kind % 9
    return tuple(k for k in range(kind - 2, kind + 3) if base <= k < base + 9)


_NEIGHBOURS = tuple(_neighbours(kind) for kind in range(NUM_KINDS))


_TILE_KINDS = len(Tile)


def _physical_counts(tiles: Sequence[Tile]) -> list[int]:
    counts = [0] * _TILE_KINDS
    for tile in tiles:
        counts[tile] += 1
    return counts


def _isolation_in(physical: Sequence[int], tile: Tile) -> int:
    """Higher for a tile with fewer friends nearby (the first to let go of): tiles of its
    suit one or two ranks away (`_NEIGHBOURS`), and more copies of itself; ``physical``:
    the hand's counts by physical kind (`_physical_counts`)."""
    friends = 0
    for kind in _FRIENDS[tile]:
        friends += physical[kind]
    return -(friends + 2 * (physical[tile] - 1))


_FRIENDS = tuple(tuple(k for k in _NEIGHBOURS[kind] if k != kind) for kind in range(NUM_KINDS))


def _edge(tile: Tile) -> int:
    """Terminals and honours connect less than middle tiles."""
    if tile.is_honor:
        return 0
    return min(tile.rank - 1, 9 - tile.rank)


_CENTRAL = tuple(-_edge(Tile(kind)) for kind in range(NUM_KINDS))
"""`_edge` negated, by kind: the second measure of loneliness."""


def claim_helps(judge: Judge, tiles: Sequence[Tile], melds: Sequence[Meld],
                rest: Sequence[Tile], melds_after: Sequence[Meld], used: Sequence[Tile],
                must_discard: bool) -> bool:
    """Whether claiming a discard — leaving ``rest`` in the hand and ``melds_after`` on
    the table, ``used`` taken from the hand — brings the hand nearer a win. After chi or
    pong the claimer discards, so it is judged by the best discard that follows; an
    exposed kong is taken when it costs nothing."""
    if any(judge.wildcards.is_joker(t) for t in used):
        return False  # a 财神 is worth more in the hand than in a meld
    if not judge.targets(melds_after):
        return False
    now = judge.shanten(tiles, melds)
    if must_discard:
        return _discard_leaves_below(judge, rest, melds_after, now)
    return judge.shanten(rest, melds_after) <= now


def kong_helps(judge: Judge, tiles: Sequence[Tile], melds: Sequence[Meld],
               rest: Sequence[Tile], melds_after: Sequence[Meld],
               used: Sequence[Tile]) -> bool:
    """A kong on one's own turn (concealed or added): worth it when the hand left is no
    further from a win than after the best plain discard (it draws a replacement)."""
    if any(judge.wildcards.is_joker(t) for t in used):
        return False
    if not judge.targets(melds_after):
        return False
    # No nearer than the best plain discard: no plain discard leaves the hand nearer.
    return not _discard_leaves_below(judge, tiles, melds, judge.shanten(rest, melds_after))


_NO_TARGET_SHANTEN = 8
"""`Judge.counts_shanten` of a hand no target fits."""


def _discard_leaves_below(judge: Judge, tiles: Sequence[Tile], melds: Sequence[Meld],
                          below: int) -> bool:
    """Whether some discard from ``tiles`` leaves a hand whose `Judge.shanten` is below
    ``below``: target by target, each target's discards weighed in one pass (`_Weighing`,
    as the discard itself is chosen), stopping at the first that is. A target the whole
    hand is no nearer than ``below`` is not weighed: a discard never leaves a hand nearer
    a target than the hand with it (a group with a tile more holds all it held, and a
    tile or a 财神 fewer is never shorter), so none of its discards can be."""
    targets = judge.targets(melds)
    if not targets:
        return below > _NO_TARGET_SHANTEN
    counts, jokers = judge.split(tiles)
    melded = len(melds)
    hand = _HandGroups(counts) if judge.aims_for_patterns else None
    kinds: list[int] | None = None
    for target in targets:
        if hand is None:
            whole = judge.counts_shanten(counts, jokers, melded, (target,))
        else:
            whole = _target_shanten(target, hand, melded)
        if whole >= below:
            continue
        if jokers and judge.counts_shanten(counts, jokers - 1, melded, (target,)) < below:
            return True  # a 财神 discarded: one joker fewer, the natural tiles as they are
        if kinds is None:
            kinds = list(set(_kinds_of(judge.wildcards, tuple(set(tiles))).values()))
        if kinds:
            weighing = _Weighing(judge, counts, jokers, melded, target, hand)
            if min(weighing.shanten_without(kinds).values()) < below:
                return True
    return False


# ---------------------------------------------------------------------------
# Playing a seat of a hand


def choose_action(state: HandState, seat: int, rng: random.Random) -> Action:
    """The computer player's move for ``seat``: always one of `legal_actions`."""
    legal = legal_actions(state, seat)
    if not legal:
        raise ValueError(f"seat {seat} has no decision to make")
    judge = remembered_judge(state)
    win = Action(ActionKind.WIN, seat)
    if win in legal:
        return _float_or_win(state, seat, legal, judge) or win
    if state.phase is Phase.TURN:
        return _turn_move(state, seat, legal, judge, rng)
    return _claim_move(state, seat, legal, judge)


MAX_FLOATS = 3
"""财飘 counts at most three times (三财飘)."""


def _float_or_win(state: HandState, seat: int, legal: Sequence[Action], judge: Judge
                  ) -> Action | None:
    """The one time the computer declines a self-draw: when a discard leaves a 暴头 hand
    whose win — certain on the next draw, since any tile completes it — is worth more
    (a plain win given up for ×2, or a 财神 floated for 财飘), and the wall is long
    enough for that draw to come. Hangzhou players play exactly so."""
    if state.phase is not Phase.TURN or state.wildcards.joker is None:
        return None
    if state.wall_remaining <= FLOAT_MIN_WALL:
        return None
    s = state.seats[seat]
    floats = sum(1 for step in s.chain if step is ChainStep.PIAO)
    better = burst_head_discard(judge, s.hand, s.melds, floats, not s.claimed_turn)
    record = remembered_self_draw(state, seat)
    if better is None or record is None or better[1] <= record.settlement.value:
        return None
    action = Action(ActionKind.DISCARD, seat, better[0])
    return action if action in legal else None


FLOAT_MIN_WALL = 24
"""Hangzhou ends the hand at 20 tiles left: float only with a few draws to spare."""


def _turn_move(state: HandState, seat: int, legal: Sequence[Action], judge: Judge,
               rng: random.Random) -> Action:
    s = state.seats[seat]
    for action in legal:
        if action.kind is ActionKind.CONCEALED_KONG:
            meld = make_meld(MeldKind.CONCEALED_KONG, action.tiles, None, state.wildcards)
            rest = s.without(*action.tiles)
            if kong_helps(judge, s.hand, s.melds, rest, (*s.melds, meld), action.tiles):
                return action
        elif action.kind is ActionKind.ADDED_KONG and action.tile is not None:
            after = _added_kong_melds(state, seat, action.tile)
            if after and kong_helps(judge, s.hand, s.melds, s.without(action.tile), after,
                                    (action.tile,)):
                return action
    allowed = [a.tile for a in legal if a.kind is ActionKind.DISCARD and a.tile is not None]
    tile = choose_discard(judge, s.hand, s.melds, remembered_unseen(state, seat), rng, allowed)
    return Action(ActionKind.DISCARD, seat, tile)


def less_useful(state: HandState, seat: int, tiles: Sequence[Tile]) -> Tile | None:
    """Of ``tiles`` (in order of preference), the one ``seat``'s turn would discard by
    the computer's own advice — the one it keeps less, as `choose_discard` weighs them —
    among those the rules let it discard now; equals go to the earliest (no random
    draw: the same answer every time); None when the rules allow none of them.

    The next discard chosen in advance, "9p, or my draw if it helps less": asked with
    (the chosen tile, the drawn tile) by the service (`bot.service.live.played_ahead`)
    and by the pace model (``bench/pace.py``). Like the computer it keeps a 财神 over any
    other tile."""
    if state.phase is not Phase.TURN or state.turn != seat:
        return None
    legal = {a.tile for a in legal_actions(state, seat)
             if a.kind is ActionKind.DISCARD and a.tile is not None}
    candidates = tuple(dict.fromkeys(t for t in tiles if t in legal))
    if len(candidates) <= 1:
        return candidates[0] if candidates else None
    s = state.seats[seat]
    best = _best_discards(remembered_judge(state), tuple(sorted(s.hand)), tuple(s.melds),
                          remembered_unseen(state, seat), tuple(sorted(candidates)))
    return next(t for t in candidates if t in best)


def kong_needs_caishen(wildcards: Wildcards, action: Action) -> bool:
    """Whether a turn's kong (concealed, or added to a pong) is made with a 财神 from
    the hand: a concealed kong with a 财神 among its four tiles (four 财神 alone too),
    or a 财神 added to a pong. The computer never gives a 财神 up so; a person's
    pre-move is not stopped by such a kong on offer, only by a kong of their own natural
    tiles (`bot.service.live.played_ahead`, ``bench/pace.py``)."""
    return any(wildcards.is_joker(t) for t in (*action.tiles, action.tile) if t is not None)


def _added_kong_melds(state: HandState, seat: int, tile: Tile) -> tuple[Meld, ...]:
    melds = list(state.seats[seat].melds)
    for i, meld in enumerate(melds):
        if meld.kind is MeldKind.PONG and state.wildcards.plays_as(tile) is meld.face:
            melds[i] = make_meld(MeldKind.ADDED_KONG, (*meld.tiles, tile), meld.from_seat,
                                 state.wildcards)
            return tuple(melds)
    return ()


_CLAIM_MELD = {ActionKind.CHI: MeldKind.CHI, ActionKind.PONG: MeldKind.PONG,
               ActionKind.KONG: MeldKind.KONG}


def _claim_move(state: HandState, seat: int, legal: Sequence[Action], judge: Judge
                ) -> Action:
    window = state.window
    s = state.seats[seat]
    assert window is not None
    # Kongs first, then pongs, then chis: a bigger meld takes more tiles off the table.
    order = (ActionKind.KONG, ActionKind.PONG, ActionKind.CHI)
    for kind in order:
        for action in legal:
            if action.kind is not kind:
                continue
            meld = make_meld(_CLAIM_MELD[kind], (*action.tiles, window.tile), window.from_seat,
                             state.wildcards)
            rest = s.without(*action.tiles)
            if claim_helps(judge, s.hand, s.melds, rest, (*s.melds, meld), action.tiles,
                           must_discard=kind is not ActionKind.KONG):
                return action
    return Action(ActionKind.PASS, seat)


def remembered_judge(state: HandState) -> Judge:
    """The `Judge` of this hand's rule set and 财神, remembered with each state: one for
    all the states that share a wildcards record (derived once a hand, `HandState`;
    Shanghai's one record serves every hand), so a view's knowledge, which holds the
    judge, can be shared between states (`engine.view`)."""
    return state.remembered("judge", lambda: _JUDGES.get(
        state.wildcards, state.rules,
        lambda: Judge(state.rules, state.wildcards, state.ruleset.shapes)))


_JUDGES: IdentityMemo[Judge] = IdentityMemo("engine.ai.judges", 64)


def remembered_unseen(state: HandState, seat: int) -> tuple[int, ...]:
    """`unseen_counts`, counted once a state (the view's suggestion and the move)."""
    return state.remembered(("unseen", seat), lambda: tuple(unseen_counts(state, seat)))


def unseen_counts(state: HandState, seat: int) -> list[int]:
    """Copies of each kind ``seat`` has not seen: not in its hand, any river, any meld
    shown to it, or the turned 财神 tile (the tiles a kong burns stay unseen, even one
    of the turned tile's kind).

    Counted as one int, a byte a kind (`_BYTE_OF_KIND`): each river's tiles are
    remembered by its tuple (a river is the same tuple until its seat discards again or
    a tile of it is claimed), so a move counts only one river anew; each seat's melds
    likewise by their tuple, as its owner or another seat sees them."""
    seen = sum(map(_BYTE_OF_KIND.__getitem__, state.seats[seat].hand))
    if state.flipped is not None:
        seen += _BYTE_OF_KIND[state.flipped]
    for other, s in enumerate(state.seats):
        discards = s.discards
        if discards:
            river = _RIVERS.find(discards, None)
            seen += _RIVERS.keep(discards, None, _river(discards)) if river is None else river
        melds = s.melds
        if melds:
            own = other == seat
            shown = _MELD_TILES.find(melds, own)
            seen += _MELD_TILES.keep(melds, own, _meld_tiles(melds, own)) if shown is None \
                else shown
    return list(seen.to_bytes(NUM_KINDS, "little").translate(_UNSEEN_OF_SEEN))


_BYTE_OF_KIND = tuple(1 << 8 * kind for kind in range(NUM_KINDS))
"""A kind's byte in a packed count (no kind is seen more than five times, so a byte
never carries into the next)."""
_UNSEEN_OF_SEEN = bytes(max(0, 4 - n) for n in range(256))
_RIVERS = IdentityMemo[int]("engine.ai.river_tiles", maxsize=1 << 8)


def _river(discards: tuple[Discard, ...]) -> int:
    """A river's tiles still in it (a claimed one is in the claimer's meld), packed as
    in `unseen_counts`."""
    shown = 0
    for d in discards:
        if d.claimed_by is None:
            shown += _BYTE_OF_KIND[d.tile]
    return shown


_MELD_TILES = IdentityMemo[int]("engine.ai.meld_tiles", maxsize=1 << 8)


def _meld_tiles(melds: tuple[Meld, ...], own: bool) -> int:
    """A seat's melds' tiles shown to a seat (``own``: its owner), packed as in
    `unseen_counts`: a concealed kong is shown only to its owner."""
    shown = 0
    for meld in melds:
        if own or meld.kind is not MeldKind.CONCEALED_KONG:
            for tile in meld.tiles:
                shown += _BYTE_OF_KIND[tile]
    return shown
