"""`parse_wall` (read once per live table by a rebuild) gives exactly what parsing the
wall a tile at a time gives, and refuses what that refuses."""

from __future__ import annotations

import random

import pytest

from bot.service.fairness import parse_wall, wall_text
from engine.tiles import NotationError, full_set, tile_from_notation


def _one_at_a_time(text: str) -> tuple[object, ...]:
    return tuple(tile_from_notation(text[i:i + 2]) for i in range(0, len(text), 2))


@pytest.mark.parametrize("flowers", [True, False])
def test_walls_parse_back_tile_for_tile(flowers: bool) -> None:
    rng = random.Random(11)
    for _ in range(2000):
        tiles = full_set(flowers)
        rng.shuffle(tiles)
        text = wall_text(tiles)
        assert parse_wall(text) == tuple(tiles) == _one_at_a_time(text)


@pytest.mark.parametrize("text", ["1m2", "1m9x", "0m1m", "1m 2p", "1m\n2", "m1", "1m五万",
                                  "\x00\x00"])
def test_a_bad_wall_is_refused_as_one_tile_is(text: str) -> None:
    with pytest.raises(NotationError):
        _one_at_a_time(text)
    with pytest.raises(NotationError):
        parse_wall(text)


def test_an_empty_wall_is_no_tiles() -> None:
    assert parse_wall("") == ()
