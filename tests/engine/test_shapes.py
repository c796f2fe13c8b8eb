"""The per-group tables the computer player reads (`engine/shapes.bin`, `engine.shapes`)
hold what the live computation (`engine.analysis`'s `_partials`) gives, and the shanten
they give is the analysis's own on thousands of random hands (both rule sets, with 财神,
with melds laid down)."""

from __future__ import annotations

import itertools
import random

import pytest

from engine import ai, rules, shape_tables, shapes, shapes_build
from engine.ai import Judge, _best_discards
from engine.analysis import (
    NO_WILDCARDS,
    Wildcards,
    _fewest_needed,
    _merged,
    _partials,
    standard_shanten,
)
from engine.memo import uncached
from engine.tiles import NUM_KINDS, Tile
from tests.engine.ai_reference import (
    best_discards_as_first_written,
    counts_shanten_as_first_written,
)

SH = Judge("shanghai", NO_WILDCARDS, rules.SHANGHAI.shapes)
HZ = Judge("hangzhou", Wildcards.fixed(), rules.HANGZHOU.shapes)
FLIP = Judge("hangzhou", Wildcards.flip(Tile.P5), rules.HANGZHOU.shapes)

_TABLES = ((shape_tables.SUIT_RUNS, 9, False), (shape_tables.SUIT_PUNGS, 9, True),
           (shape_tables.HONOURS, 7, True))


def _live(key: tuple[int, ...], honours: bool) -> shapes.Vector:
    return shapes.vector_of(_partials(key, honours))


def _table_vector(table: bytes, key: tuple[int, ...]) -> shapes.Vector:
    number = table[shapes.code_of(key)]
    assert number != shapes.UNKNOWN, key
    return shape_tables.VECTORS.vectors[number]


@pytest.mark.parametrize(("table", "kinds", "honours"), _TABLES)
def test_every_small_group_reads_its_live_vector(table: bytes, kinds: int, honours: bool
                                                 ) -> None:
    """Every group of up to six tiles, in each table."""
    for key in itertools.product(range(5), repeat=kinds):
        if sum(key) <= 6:
            assert _table_vector(table, key) == _live(key, honours), key


@pytest.mark.parametrize(("table", "kinds", "honours"), _TABLES)
def test_random_groups_read_their_live_vectors(table: bytes, kinds: int, honours: bool
                                               ) -> None:
    """4,000 random groups of 7 to 14 tiles in each table, and groups no table holds."""
    rng = random.Random(41)
    for _ in range(4000):
        counts = [0] * kinds
        size = rng.randint(7, 14)
        while sum(counts) < size:
            kind = rng.randrange(kinds)
            if counts[kind] < 4:
                counts[kind] += 1
        key = tuple(counts)
        assert _table_vector(table, key) == _live(key, honours), key
    too_many = (4, 4, 4, 3) + (0,) * (kinds - 4)  # fifteen tiles: left to the live path
    assert table[shapes.code_of(too_many)] == shapes.UNKNOWN
    assert shape_tables.VECTORS.vectors[shape_tables.vector_id(table, too_many, honours)] \
        == _live(too_many, honours)
    five = (5, 1) + (0,) * (kinds - 2)  # a count of five has no code of its own
    assert shape_tables.VECTORS.vectors[shape_tables.vector_id(table, five, honours)] \
        == _live(five, honours)


def test_the_builder_writes_the_committed_honours_table() -> None:
    """The generator, run again on the honours with the file's own numbering, writes the
    same bytes and meets no vector the file does not number."""
    numbers = {v: n for n, v in enumerate(shape_tables.VECTORS.vectors[:_file_vectors()])}
    before = len(numbers)
    assert shapes_build.table(7, True, numbers) == shape_tables.HONOURS
    assert len(numbers) == before


def _file_vectors() -> int:
    top = max(max(shape_tables.SUIT_RUNS.replace(b"\xff", b"")),
              max(shape_tables.SUIT_PUNGS.replace(b"\xff", b"")),
              max(shape_tables.HONOURS.replace(b"\xff", b"")))
    return top + 1


def _random_counts(rng: random.Random, size: int, suits_only: bool = False) -> list[int]:
    counts = [0] * NUM_KINDS
    while sum(counts) < size:
        kind = rng.randrange(27 if suits_only else NUM_KINDS)
        if rng.random() < 0.5:  # crowd one suit and the honours, as flushes do
            kind = rng.choice((rng.randrange(9), rng.randrange(27, NUM_KINDS)))
        if counts[kind] < 4:
            counts[kind] += 1
    return counts


def test_merged_values_need_what_the_merged_structures_need() -> None:
    """`shapes.needed` of the groups' merged vectors is `_fewest_needed` of their merged
    (melds, partials, pair) structures: 5,000 random hands, 2 to 14 tiles, 1 to 4 blocks,
    with and without chows."""
    rng = random.Random(43)
    for _ in range(5000):
        counts = _random_counts(rng, rng.choice((2, 5, 8, 11, 13, 14)))
        blocks = rng.randint(1, 4)
        pungs = rng.random() < 0.3
        keys = [tuple(counts[a:b]) for a, b in ((0, 9), (9, 18), (18, 27), (27, 34))]
        structures = [_partials(key, pungs or g == 3) for g, key in enumerate(keys)]
        old = _fewest_needed(_merged(structures, blocks), sum(counts), blocks)
        merged = shape_tables.EMPTY
        for g, key in enumerate(keys):
            table = (shape_tables.SUIT_PUNGS if pungs else shape_tables.SUIT_RUNS) \
                if g < 3 else shape_tables.HONOURS
            merged = shape_tables.merge(merged,
                                        shape_tables.vector_id(table, key, pungs or g == 3))
        value = shape_tables.VALUES[merged][blocks]
        assert shapes.needed(value, sum(counts), blocks) == old, (counts, blocks, pungs)


@pytest.mark.parametrize("judge", [SH, HZ, FLIP], ids=["shanghai", "fixed", "flip"])
def test_the_tables_shanten_is_the_analysis_shanten_on_random_hands(judge: Judge) -> None:
    """3,000 random hands a rule set (Hangzhou with up to four 财神, 0 to 3 melds laid
    down): `Judge.counts_shanten` towards every target set equals the analysis's own
    shanten of the counts each target keeps."""
    rng = random.Random(47)
    for _ in range(3000):
        melds = rng.choice((0, 0, 0, 1, 2, 3))
        jokers = 0 if judge is SH else rng.choice((0, 0, 1, 2, 3, 4))
        size = max(0, 14 - 3 * melds - jokers - rng.randint(0, 1))
        counts = _random_counts(rng, size)
        targets = ai._SHANGHAI_TARGETS if judge is SH else (ai._FREE,)
        for chosen in (targets, *((t,) for t in targets)):
            assert judge.counts_shanten(counts, jokers, melds, chosen) == \
                counts_shanten_as_first_written(judge, counts, jokers, melds, chosen), \
                (counts, jokers, melds, chosen)


def test_a_group_of_fifteen_tiles_is_worked_out_live() -> None:
    """A group the tables do not hold (more than fourteen tiles) still has its shanten."""
    counts = [4, 4, 4, 3, 0, 0, 0, 0, 0] + [0] * 25
    assert ai._standard_shanten(counts, 0, 4) == standard_shanten(counts, 0, 4)
    assert SH.counts_shanten(counts, 0, 0, ai._SHANGHAI_TARGETS) == \
        counts_shanten_as_first_written(SH, counts, 0, 0, ai._SHANGHAI_TARGETS)


def test_one_more_of_a_kind_held_four_times_is_weighed_as_the_plain_count() -> None:
    """Hangzhou flip mode: four White Dragons play as the turned tile, whose three other
    copies are 财神 still unseen, so one more of a kind already held four times is asked
    about (a count of five: no code of its own, worked out live)."""
    judge = Judge("hangzhou", Wildcards.flip(Tile.M2), rules.HANGZHOU.shapes)
    tiles = tuple(sorted([Tile.WHITE] * 4 + [Tile.M3, Tile.M4, Tile.M5, Tile.M7, Tile.M8,
                                            Tile.P1, Tile.P9, Tile.S2, Tile.EAST, Tile.NORTH]))
    unseen = tuple(3 if kind == Tile.M2 else 2 for kind in range(NUM_KINDS))
    candidates = tuple(sorted(set(tiles)))
    assert judge.split(tiles)[0][Tile.M2] == 4
    assert uncached(_best_discards)(judge, tiles, (), unseen, candidates) == \
        best_discards_as_first_written(judge, tiles, (), unseen, candidates)


def test_the_files_merges_are_the_live_merges() -> None:
    """Every pair of the file's vectors merges, as the file says, to the vector the live
    merge gives, and no merge of two of them leaves the file's vectors."""
    vectors = shape_tables.VECTORS.vectors
    count = len(shape_tables._VECTORS)
    assert count >= shape_tables.TABLE_NUMBERS
    for a in range(count):
        for b in range(count):
            merged = shape_tables.MERGED[a << 16 | b]
            assert merged < count, (a, b)
            assert vectors[merged] == shapes._merged_vector(vectors[a], vectors[b]), (a, b)
