"""Tile notation, names and the full set (engine/tiles.py)."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.tiles import (
    FLOWERS,
    NUM_KINDS,
    PLAYING_TILES,
    NotationError,
    Suit,
    Tile,
    check_copies,
    counts_of,
    format_tiles,
    full_set,
    parse_tiles,
    tile_from_notation,
    tiles_from_counts,
)

PROPS = settings(max_examples=200, deadline=None, derandomize=True, database=None)


# ---------------------------------------------------------------------------
# Parsing


def test_compact_runs() -> None:
    assert parse_tiles("123m456p11z") == [
        Tile.M1, Tile.M2, Tile.M3, Tile.P4, Tile.P5, Tile.P6, Tile.EAST, Tile.EAST]


def test_parse_keeps_written_order() -> None:
    assert parse_tiles("9s1m5z") == [Tile.S9, Tile.M1, Tile.WHITE]
    assert parse_tiles("1m1p1m") == [Tile.M1, Tile.P1, Tile.M1]


def test_every_suit_letter() -> None:
    assert parse_tiles("1m") == [Tile.M1]
    assert parse_tiles("9p") == [Tile.P9]
    assert parse_tiles("5s") == [Tile.S5]
    assert parse_tiles("1234567z") == [
        Tile.EAST, Tile.SOUTH, Tile.WEST, Tile.NORTH, Tile.WHITE, Tile.GREEN, Tile.RED]
    assert parse_tiles("12345678f") == list(FLOWERS)


def test_spaces_are_ignored() -> None:
    assert parse_tiles("123m 456p") == parse_tiles("123m456p")
    assert parse_tiles(" 1z ") == [Tile.EAST]


def test_tile_from_notation() -> None:
    assert tile_from_notation("5z") is Tile.WHITE
    assert tile_from_notation("8f") is Tile.CHRYSANTHEMUM
    assert tile_from_notation("7s") is Tile.S7


@pytest.mark.parametrize(("text", "message"), [
    ("0m", "no tile 0m"),
    ("8z", "no tile 8z"),
    ("9f", "no tile 9f"),
    ("10p", "no tile 0p"),
    ("11111m", "5 copies of 1m"),
    ("11f", "2 copies of 1f"),
    ("1z1z1z1z1z", "5 copies of 1z"),
    ("", "empty tile notation"),
    ("   ", "empty tile notation"),
    ("1m!", "unexpected '!'"),
    ("m123", "unexpected 'm'"),
    ("1m-2m", "unexpected '-'"),
    ("12x", "unknown suit letter 'x'"),
    ("123", "digits without a suit letter"),
    ("123m45", "digits without a suit letter at '45'"),
])
def test_refusals_name_the_problem(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        parse_tiles(text)


def test_refusal_messages_in_full() -> None:
    with pytest.raises(NotationError) as info:
        parse_tiles("0m")
    assert str(info.value) == "no tile 0m in '0m': m runs from 1 to 9"
    with pytest.raises(NotationError) as info:
        parse_tiles("8z")
    assert str(info.value) == "no tile 8z in '8z': z runs from 1 to 7"
    with pytest.raises(NotationError) as info:
        parse_tiles("9f")
    assert str(info.value) == "no tile 9f in '9f': f runs from 1 to 8"
    with pytest.raises(NotationError) as info:
        parse_tiles("11111m")
    assert str(info.value) == "5 copies of 1m (一万) but a set holds only 4"


def test_notation_error_is_a_value_error() -> None:
    assert issubclass(NotationError, ValueError)


def test_non_text_is_refused() -> None:
    with pytest.raises(NotationError, match="must be text"):
        parse_tiles(123)  # type: ignore[arg-type]  # not text, on purpose


def test_empty_allowed_when_asked() -> None:
    assert parse_tiles("", allow_empty=True) == []


def test_copies_unchecked_when_asked() -> None:
    assert parse_tiles("11111m", max_copies=False) == [Tile.M1] * 5


def test_tile_from_notation_wants_exactly_one() -> None:
    with pytest.raises(NotationError, match="exactly one tile, got 2"):
        tile_from_notation("12m")
    with pytest.raises(NotationError, match="empty"):
        tile_from_notation("")
    with pytest.raises(NotationError, match="no tile 0s"):
        tile_from_notation("0s")


def test_check_copies_limits() -> None:
    check_copies([Tile.M1] * 4)
    with pytest.raises(NotationError, match="holds only 4"):
        check_copies([Tile.M1] * 5)
    with pytest.raises(NotationError, match="holds only 2"):
        check_copies([Tile.M1] * 3, {Tile.M1: 2})


# ---------------------------------------------------------------------------
# Formatting and round trips


def test_format_compact() -> None:
    assert format_tiles(parse_tiles("11z456p123m")) == "123m456p11z"
    assert format_tiles([Tile.M1, Tile.M2, Tile.EAST]) == "12m1z"
    assert format_tiles([]) == ""
    assert format_tiles(parse_tiles("1z123m1f"), sort=False) == "1z123m1f"


@pytest.mark.parametrize("text", [
    "123m456p11z", "1112345678999m", "19m19p19s1234567z", "12345678f", "5z", "1m1p1s1z1f"])
def test_canonical_text_round_trips(text: str) -> None:
    assert format_tiles(parse_tiles(text)) == text


def physical_tiles() -> st.SearchStrategy[list[Tile]]:
    """A plausible multiset of physical tiles: at most 4 of a kind, 1 of a flower."""
    pool = [t for t in PLAYING_TILES for _ in range(4)] + list(FLOWERS)
    return st.lists(st.integers(0, len(pool) - 1), unique=True, max_size=30).map(
        lambda idx: [pool[i] for i in idx])


@PROPS
@given(physical_tiles())
def test_format_then_parse_sorted(tiles: list[Tile]) -> None:
    text = format_tiles(tiles)
    if not tiles:
        assert text == ""
        return
    assert parse_tiles(text) == sorted(tiles)
    assert format_tiles(parse_tiles(text)) == text


@PROPS
@given(physical_tiles())
def test_format_unsorted_keeps_order(tiles: list[Tile]) -> None:
    if tiles:
        assert parse_tiles(format_tiles(tiles, sort=False)) == tiles


def test_single_tile_notation() -> None:
    for tile in Tile:  # every one of them, not a sample
        assert tile_from_notation(tile.notation) is tile
        assert str(tile) == tile.notation
        assert format_tiles([tile]) == tile.notation


def test_counts_round_trip() -> None:
    tiles = parse_tiles("1112345678999m5z")
    counts = counts_of(tiles)
    assert len(counts) == NUM_KINDS
    assert counts[Tile.M1] == 3 and counts[Tile.M9] == 3 and counts[Tile.WHITE] == 1
    assert tiles_from_counts(counts) == sorted(tiles)


# ---------------------------------------------------------------------------
# Properties and names


def test_suits_and_ranks() -> None:
    assert Tile.M9.suit is Suit.CHARACTERS and Tile.M9.rank == 9
    assert Tile.P1.suit is Suit.DOTS and Tile.P1.rank == 1
    assert Tile.S5.suit is Suit.BAMBOO and Tile.S5.rank == 5
    assert Tile.RED.suit is Suit.HONORS and Tile.RED.rank == 7
    assert Tile.CHRYSANTHEMUM.suit is Suit.FLOWERS and Tile.CHRYSANTHEMUM.rank == 8
    assert Tile.M1.is_suited and not Tile.M1.is_honor and not Tile.M1.is_flower
    assert Tile.NORTH.is_wind and Tile.NORTH.is_honor and not Tile.NORTH.is_dragon
    assert Tile.WHITE.is_dragon and not Tile.WHITE.is_wind
    assert Tile.SPRING.is_flower and not Tile.SPRING.is_honor and not Tile.SPRING.is_suited


def test_suits_are_contiguous_runs_of_nine() -> None:
    for base, suit in ((0, Suit.CHARACTERS), (9, Suit.DOTS), (18, Suit.BAMBOO)):
        for rank in range(1, 10):
            tile = Tile(base + rank - 1)
            assert tile.suit is suit and tile.rank == rank


@pytest.mark.parametrize(("tile", "zh", "en"), [
    (Tile.M1, "一万", "One of Characters"),
    (Tile.P5, "五筒", "Five of Dots"),
    (Tile.S9, "九条", "Nine of Bamboo"),
    (Tile.EAST, "东风", "East Wind"),
    (Tile.NORTH, "北风", "North Wind"),
    (Tile.WHITE, "白板", "White Dragon"),
    (Tile.GREEN, "发财", "Green Dragon"),
    (Tile.RED, "红中", "Red Dragon"),
    (Tile.SPRING, "春", "Spring (flower 1)"),
    (Tile.CHRYSANTHEMUM, "菊", "Chrysanthemum (flower 8)"),
])
def test_names(tile: Tile, zh: str, en: str) -> None:
    assert tile.zh == zh
    assert tile.en == en


def test_every_tile_has_distinct_names() -> None:
    assert len({t.zh for t in Tile}) == len(Tile)
    assert len({t.en for t in Tile}) == len(Tile)


def test_full_set_sizes() -> None:
    plain = full_set(False)
    flowers = full_set(True)
    assert len(plain) == 136
    assert len(flowers) == 144
    assert Counter(plain) == {t: 4 for t in PLAYING_TILES}
    assert Counter(flowers) == {**{t: 4 for t in PLAYING_TILES}, **{f: 1 for f in FLOWERS}}
    check_copies(flowers)
    assert len(PLAYING_TILES) == NUM_KINDS == 34
    assert len(FLOWERS) == 8


def test_every_tile_s_group_properties_agree_with_its_suit_and_rank() -> None:
    """The properties compare plain ints (speed): held to the suit and rank tables."""
    for tile in Tile:
        suit, rank = tile.suit, tile.rank
        assert tile.is_suited is (suit in (Suit.CHARACTERS, Suit.DOTS, Suit.BAMBOO))
        assert tile.is_honor is (suit is Suit.HONORS)
        assert tile.is_wind is (suit is Suit.HONORS and rank <= 4)
        assert tile.is_dragon is (suit is Suit.HONORS and rank >= 5)
        assert tile.is_flower is (suit is Suit.FLOWERS)
