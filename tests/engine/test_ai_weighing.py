"""The computer player's fast weighing of discards (group by group, memoised on shapes)
gives exactly the plain answers of `tests.engine.ai_reference`: on every group shape of a
few tiles, on random group counts, on random hands of every rule set (Hangzhou with 财神
in both modes), and on the very decisions seeded self-play makes."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import ai, memo, rules
from engine.ai import Judge, _best_discards, _discard_leaves_below
from engine.analysis import NO_WILDCARDS, Wildcards, _partials, _shape
from engine.melds import MeldKind
from engine.rules.common import make_meld
from engine.selfplay import selfplay
from engine.shape_tables import EMPTY, VECTORS, merge
from engine.tiles import NUM_KINDS, Tile
from tests.engine.ai_reference import (
    best_discards_as_first_written,
    best_shanten_after_discard_as_first_written,
    best_target_as_first_written,
    partials_as_first_written,
)

SH = Judge("shanghai", NO_WILDCARDS, rules.SHANGHAI.shapes)
HZ = Judge("hangzhou", Wildcards.fixed(), rules.HANGZHOU.shapes)
FLIP = Judge("hangzhou", Wildcards.flip(Tile.P5), rules.HANGZHOU.shapes)
FLIP_WHITE = Judge("hangzhou", Wildcards.flip(Tile.WHITE), rules.HANGZHOU.shapes)


def _keys(kinds: int, tiles: int) -> list[tuple[int, ...]]:
    """Every group of ``kinds`` kinds holding ``tiles`` tiles (at most four of a kind)."""
    if kinds == 0:
        return [()] if tiles == 0 else []
    return [(n, *rest) for n in range(min(4, tiles) + 1) for rest in _keys(kinds - 1, tiles - n)]


@pytest.mark.parametrize("tiles", range(0, 9))
def test_a_groups_structures_are_those_of_its_counts_for_every_small_group(tiles: int
                                                                           ) -> None:
    """Every suit of up to eight tiles, read with and without chows, and every honours
    group of up to eight: the structures worked out by shape are the counts' own."""
    memo.clear()
    for key in _keys(9, tiles):
        for honors in (False, True):
            assert _partials(key, honors) == partials_as_first_written(key, honors), key
    for key in _keys(7, tiles):
        assert _partials(key, True) == partials_as_first_written(key, True), key


def test_a_groups_structures_are_those_of_its_counts_on_random_groups() -> None:
    """4,000 random suits and honours groups of 6 to 14 tiles, and their shapes."""
    rng = random.Random(5)
    memo.clear()
    for number in range(4000):
        size, honors = (7, True) if number % 4 == 0 else (9, number % 4 == 1)
        counts = [0] * size
        for _ in range(rng.randint(6, 14)):
            kind = rng.randrange(size)
            if counts[kind] < 4:
                counts[kind] += 1
        key = tuple(counts)
        assert _partials(key, honors) == partials_as_first_written(key, honors), key
        shape = _shape(key, honors)
        assert partials_as_first_written(shape, honors) == \
            partials_as_first_written(key, honors), (key, shape)


def _random_case(rng: random.Random, number: int) -> tuple[Judge, list[Tile], tuple[Any, ...],
                                                           tuple[int, ...] | None,
                                                           tuple[Tile, ...]]:
    judge = (SH, HZ, FLIP, FLIP_WHITE)[number % 4]
    wall = [t for t in rules.get(judge.rules).tile_set() if not t.is_flower]
    rng.shuffle(wall)
    melds = []
    for _ in range(rng.choice((0, 0, 1, 2, 3))):
        face = wall.pop()
        if judge.wildcards.plays_as(face) is None or wall.count(face) < 2:
            continue
        wall.remove(face)
        wall.remove(face)
        kind = MeldKind.PONG if judge is SH or rng.random() < 0.5 else MeldKind.CONCEALED_KONG
        tiles = (face,) * (3 if kind is MeldKind.PONG else 4)
        melds.append(make_meld(kind, tiles, 1 if kind is MeldKind.PONG else None,
                               judge.wildcards))
    if number % 7 == 0 and judge is not SH:  # a hand heavy with 财神
        jokers = [t for t in wall if judge.wildcards.is_joker(t)]
        wall = jokers + [t for t in wall if not judge.wildcards.is_joker(t)]
    hand = wall[:14 - 3 * len(melds)]
    unseen = None if number % 3 == 0 else tuple(rng.randint(0, 4) for _ in range(NUM_KINDS))
    candidates = sorted(set(hand))
    if number % 5 == 0 and len(candidates) > 2:  # a turn that allows only some discards
        candidates = rng.sample(candidates, len(candidates) // 2)
    return judge, hand, tuple(melds), unseen, tuple(sorted(candidates))


def test_the_discards_weighed_are_the_plain_ones_on_random_hands() -> None:
    """3,000 random hands (Shanghai with pongs; Hangzhou fixed and flip with 财神, some
    full of them, with pongs and concealed kongs), random unseen counts, some turns
    allowing only some discards: the same discards to draw from."""
    rng = random.Random(23)
    for number in range(3000):
        judge, hand, melds, unseen, candidates = _random_case(rng, number)
        tiles = tuple(sorted(hand))
        assert memo.uncached(_best_discards)(judge, tiles, melds, unseen, candidates) == \
            best_discards_as_first_written(judge, tiles, melds, unseen, candidates), \
            (judge.rules, judge.wildcards, tiles, melds, unseen, candidates)


SHANTENS = range(-2, 10)
"""Every bound a claim or a kong may ask about, and one beyond each end."""


def test_a_discard_leaves_the_hand_below_as_the_plain_lowest_on_random_hands() -> None:
    """What a claim or a kong is measured against: on 3,000 random hands (the cases
    above, and each hand less a tile, as a claim leaves it with melds that rule out some
    targets), for every bound, whether some discard leaves the hand below it is whether
    the lowest shanten found a discard at a time is (the targets the whole hand is no
    nearer than the bound left unweighed)."""
    rng = random.Random(29)
    for number in range(3000):
        judge, hand, melds, _, _ = _random_case(rng, number)
        for tiles in (hand, hand[1:]):
            lowest = best_shanten_after_discard_as_first_written(judge, tiles, melds)
            for below in SHANTENS:
                assert _discard_leaves_below(judge, tiles, melds, below) == (lowest < below), \
                    (judge.rules, judge.wildcards, tiles, melds, below)


@pytest.mark.parametrize(("rules_name", "options", "hands"), [
    ("shanghai", {}, 40), ("hangzhou", {}, 30), ("hangzhou", {"caishen": "flip"}, 30)])
def test_the_discards_weighed_are_the_plain_ones_in_self_play(
        monkeypatch: pytest.MonkeyPatch, rules_name: str, options: dict[str, Any],
        hands: int) -> None:
    """Every discard decision of seeded self-play (thousands in all) against the plain
    weighing, from empty memos as a bot starts."""
    decisions = []
    weigh = ai._best_discards

    def recorded(*args: Any) -> tuple[Tile, ...]:
        decisions.append(args)
        return weigh(*args)

    memo.clear()
    monkeypatch.setattr(ai, "_best_discards", recorded)
    selfplay(rules_name, hands, seed=17, options=options, check_views=False)
    assert len(decisions) > 700
    for judge, tiles, melds, unseen, candidates in decisions:
        assert memo.uncached(weigh)(judge, tiles, melds, unseen, candidates) == \
            best_discards_as_first_written(judge, tiles, melds, unseen, candidates), \
            (tiles, melds, unseen, candidates)


@pytest.mark.parametrize(("rules_name", "options"), [
    ("shanghai", {}), ("hangzhou", {}), ("hangzhou", {"caishen": "flip"})])
def test_claims_and_kongs_weigh_the_plain_discards_in_self_play(
        monkeypatch: pytest.MonkeyPatch, rules_name: str, options: dict[str, Any]) -> None:
    """Every claim and kong seeded self-play weighs (hundreds) against the plain lowest
    shanten after a discard: the answer asked for, and the answer for every other bound."""
    asked = []
    weigh = ai._discard_leaves_below

    def recorded(*args: Any) -> bool:
        asked.append(args)
        return weigh(*args)

    memo.clear()
    monkeypatch.setattr(ai, "_discard_leaves_below", recorded)
    selfplay(rules_name, 30, seed=19, options=options, check_views=False)
    assert len(asked) > 200
    for judge, tiles, melds, asked_below in asked:
        lowest = best_shanten_after_discard_as_first_written(judge, tiles, melds)
        assert asked_below in SHANTENS
        for below in SHANTENS:
            assert weigh(judge, tiles, melds, below) == (lowest < below), \
                (tiles, melds, below)


def test_the_target_is_the_plain_one_on_random_hands() -> None:
    """3,000 random hands (and each less a tile): the target the discards are weighed
    towards is the one measured target by target on the whole hand."""
    rng = random.Random(31)
    memo.clear()
    for number in range(3000):
        judge, hand, melds, _, _ = _random_case(rng, number)
        for tiles in (hand, hand[1:]):
            assert judge.best_target(tiles, melds) == \
                best_target_as_first_written(judge, tiles, melds), (tiles, melds)


def _merged_in_order(ids: list[int], groups: list[int]) -> int:
    """The groups' vector numbers merged one after another, in the order given."""
    merged = EMPTY
    for g in groups:
        merged = merge(merged, ids[g])
    return merged


def test_the_rests_are_the_groups_merged_in_any_order_on_random_groups() -> None:
    """`_rests_of` merges each set of groups from a set one smaller: on 5,000 random
    vector numbers of the groups each target weighs, every rest (but one group, all, but
    two) is the vector of those groups merged one after another, in order and reversed."""
    rng = random.Random(37)
    plans = [(0, 1, 2, 3), (0, 3), (1, 3), (2, 3), (0,), (1,), (2,)]
    for _ in range(5000):
        groups = rng.choice(plans)
        ids = [rng.randrange(len(VECTORS.vectors)) if g in groups else EMPTY
               for g in range(4)]
        rests = ai._rests_of(ids, groups)
        left_out = [(g,) for g in range(4)] + [()] + \
            [(g, gone) for g in range(4) for gone in range(4)]
        assert len(rests) == len(left_out)
        for rest, out in zip(rests, left_out, strict=True):
            kept = [g for g in groups if g not in out]
            for order in (kept, kept[::-1]):
                assert VECTORS.vectors[rest] == \
                    VECTORS.vectors[_merged_in_order(ids, order)], (ids, groups, out)
