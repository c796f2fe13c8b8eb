"""The computer player's judgement of hands (discards, claims, kongs)."""

from __future__ import annotations

import random

from engine import rules
from engine.ai import (
    Judge,
    _shanten_without_each,
    _useful_each,
    choose_discard,
    claim_helps,
    kong_helps,
)
from engine.analysis import NO_WILDCARDS, Wildcards
from engine.melds import Meld, MeldKind
from engine.rules.common import make_meld
from engine.tiles import NUM_KINDS, Tile, parse_tiles
from tests.engine.ai_reference import useful_as_first_written

SH = Judge("shanghai", NO_WILDCARDS, rules.SHANGHAI.shapes)
HZ = Judge("hangzhou", Wildcards.fixed(), rules.HANGZHOU.shapes)


def test_shanghai_measures_towards_qualifying_patterns_only() -> None:
    plain_ready = parse_tiles("123m456p789s1122z")  # ready, but a plain hand cannot win
    assert SH.shanten(plain_ready, []) > 0
    flush_ready = parse_tiles("1112345678999m")[:13]
    assert SH.shanten(flush_ready, []) == 0
    honours = parse_tiles("1234567123456z")[:13]
    assert SH.shanten(honours, []) == 0


def test_shanghai_discards_the_tile_off_its_flush() -> None:
    hand = parse_tiles("1123456789m99m1p")
    assert choose_discard(SH, hand, [], None, random.Random(1)) is Tile.P1


def test_shanghai_melds_close_targets() -> None:
    chi = make_meld(MeldKind.CHI, parse_tiles("123p"), 0)
    assert [t.name for t in SH.targets([chi])] == ["flush:p"]
    pong = make_meld(MeldKind.PONG, parse_tiles("111z"), 0)
    assert {t.name for t in SH.targets([pong])} == {
        "flush:m", "flush:p", "flush:s", "all_pungs", "honours"}


def test_hangzhou_keeps_its_wildcard() -> None:
    hand = parse_tiles("159m159p159s1234z5z")
    for seed in range(20):
        assert choose_discard(HZ, hand, [], None, random.Random(seed)) is not Tile.WHITE


def test_a_hand_of_wildcards_still_discards() -> None:
    hand = [Tile.WHITE] * 2
    kong = make_meld(MeldKind.CONCEALED_KONG, parse_tiles("1111m"), None)
    melds = [kong, kong, kong, kong]
    assert choose_discard(HZ, hand, melds, None, random.Random(0)) is Tile.WHITE


def test_claim_only_when_it_brings_the_hand_nearer() -> None:
    tiles = parse_tiles("1155m2378p1234z9s")
    pong = make_meld(MeldKind.PONG, parse_tiles("555m"), 3)
    rest = [t for t in tiles]
    rest.remove(Tile.M5)
    rest.remove(Tile.M5)
    # 55m becomes a pong while 11m stays the pair: one step nearer.
    assert claim_helps(HZ, tiles, [], rest, [pong], [Tile.M5, Tile.M5], must_discard=True)
    # A pong that breaks the hand's only pair and run brings nothing.
    ready = parse_tiles("123m456p789s1122z")
    pong2 = make_meld(MeldKind.PONG, parse_tiles("111z"), 3)
    rest2 = list(ready)
    rest2.remove(Tile.EAST)
    rest2.remove(Tile.EAST)
    assert not claim_helps(HZ, ready, [], rest2, [pong2], [Tile.EAST] * 2, must_discard=True)
    # A flush hand does not chi a tile of another suit in Shanghai.
    flush = parse_tiles("1112345678m23p")[:13]
    chi = make_meld(MeldKind.CHI, parse_tiles("123p"), 0)
    rest = list(flush)
    rest.remove(Tile.P2)
    rest.remove(Tile.P3)
    assert not claim_helps(SH, flush, [], rest, [chi], [Tile.P2, Tile.P3], must_discard=True)


def test_kong_of_a_spare_pung() -> None:
    tiles = parse_tiles("1111m234p567s789s1z")
    kong = make_meld(MeldKind.CONCEALED_KONG, parse_tiles("1111m"), None)
    rest = tiles[4:]
    assert kong_helps(HZ, tiles, [], rest, [kong], tiles[:4])
    assert not kong_helps(HZ, parse_tiles("5555z1m234p567s789s"), [],
                          parse_tiles("1m234p567s789s"),
                          [make_meld(MeldKind.CONCEALED_KONG, parse_tiles("5555z"), None)],
                          parse_tiles("5555z"))


def _random_hands(rng: random.Random, wall: list[Tile], count: int
                  ) -> list[tuple[list[Tile], list[Meld]]]:
    """Hands of 14 tiles less three a meld, the melds pongs of tiles not in the hand."""
    out = []
    for _ in range(count):
        tiles = rng.sample(wall, 14)
        melds = []
        for _ in range(rng.randrange(3)):
            face = tiles.pop()
            tiles.pop(), tiles.pop()
            melds.append(make_meld(MeldKind.PONG, (face,) * 3, 1, NO_WILDCARDS))
        out.append((tiles, melds))
    return out


def test_the_shanten_of_each_discard_in_one_pass_is_each_discards_shanten() -> None:
    """`_shanten_without_each` (the discards' shanten sharing the hand's merged groups)
    equals `Judge.shanten` of the hand each discard leaves: Shanghai towards every
    target, Hangzhou with fixed and flip-mode 财神 (the White Dragon a stand-in)."""
    rng = random.Random(7)
    judges = [(SH, rules.SHANGHAI.tile_set()), (HZ, rules.HANGZHOU.tile_set()),
              (Judge("hangzhou", Wildcards.flip(Tile.P5), rules.HANGZHOU.shapes),
               rules.HANGZHOU.tile_set())]
    checked = 0
    for judge, wall in judges:
        wall = [t for t in wall if not t.is_flower]
        for tiles, melds in _random_hands(rng, wall, 150):
            discards = sorted({t for t in tiles if not judge.wildcards.is_joker(t)})
            for target in (*judge.targets(melds), judge.best_target(tiles, melds)):
                found = _shanten_without_each(judge, tiles, melds, target, discards)
                for tile in discards:
                    rest = list(tiles)
                    rest.remove(tile)
                    assert found[tile] == judge.shanten(rest, melds, target), (tiles, tile)
                    checked += 1
    assert checked > 5000


def test_useful_tiles_match_a_count_kind_by_kind_on_random_hands() -> None:
    """1,500 random hands, Shanghai (every target, with melds) and Hangzhou (财神
    in both modes, seven pairs): each discard's useful-tile count is the plain one."""
    rng = random.Random(11)
    flip = Judge("hangzhou", Wildcards.flip(Tile.P5), rules.HANGZHOU.shapes)
    pong = make_meld(MeldKind.PONG, parse_tiles("777z"), 1)
    chi = make_meld(MeldKind.CHI, parse_tiles("234m"), 2)
    checked = 0
    for number in range(1500):
        judge = (SH, HZ, flip)[number % 3]
        melds = [[], [pong], [chi], [pong, chi]][number // 3 % 4] if judge is SH else []
        wall = [t for t in Tile if not t.is_flower for _ in range(4)]
        rng.shuffle(wall)
        tiles = wall[:14 - 3 * len(melds)]
        unseen = None if number % 2 else [rng.randint(0, 4) for _ in range(NUM_KINDS)]
        for target in (judge.targets(melds) or (judge.best_target(tiles, melds),)):
            now = judge.shanten(tiles, melds, target)
            discards = sorted({t for t in tiles if not judge.wildcards.is_joker(t)})
            found = _useful_each(judge, tiles, melds, target, now, unseen, discards)
            for tile in discards:
                rest = list(tiles)
                rest.remove(tile)
                assert found[tile] == useful_as_first_written(
                    judge, rest, melds, target, now, unseen), (tiles, tile, target)
                checked += 1
    assert checked > 15000
